import { Loader2 } from 'lucide-react';
import { cn } from '@/client/lib/cn';

export function Spinner({ label, className }: { label: string; className?: string }) {
  return (
    <span role="status" className="inline-flex items-center">
      <Loader2 className={cn('size-4 animate-spin', className)} aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </span>
  );
}
