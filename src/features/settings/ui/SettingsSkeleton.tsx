import { Skeleton } from '@/client/components/ui/skeleton';

/** What a tab shows while its settings load (skeleton placeholders). */
export function SettingsSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-busy="true" aria-label={`Loading ${label}`} className="space-y-4 rounded-lg border p-6">
      <Skeleton className="h-6 w-48" />
      <Skeleton className="h-10 w-full" />
      <Skeleton className="h-10 w-full" />
      <Skeleton className="h-10 w-2/3" />
    </div>
  );
}
