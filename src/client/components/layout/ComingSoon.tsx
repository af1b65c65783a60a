import { PageHeader } from './PageHeader';

/** A screen whose work is still to come: its title and an honest line, nothing invented. */
export function ComingSoon({ title, subtitle }: { title: string; subtitle?: string }) {
  return (
    <section>
      <PageHeader title={title} subtitle={subtitle} />
      <p className="rounded-md border border-dashed p-6 text-muted-foreground">
        This screen is coming soon: it is being built and shows no data yet.
      </p>
    </section>
  );
}
