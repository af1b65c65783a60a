import { AlertCircle } from 'lucide-react';

export function NotFoundPage() {
  return (
    <section className="mx-auto mt-16 max-w-md rounded-lg border p-6">
      <h1 className="flex items-center gap-2 text-2xl font-bold">
        <AlertCircle className="size-6 text-destructive" aria-hidden="true" />
        404 Page Not Found
      </h1>
      <p className="mt-4 text-muted-foreground">Did you forget to add the page to the router?</p>
    </section>
  );
}
