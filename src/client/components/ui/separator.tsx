import type { ComponentProps } from 'react';
import { cn } from '@/client/lib/cn';

export function Separator({ className, ...props }: ComponentProps<'div'>) {
  return <div role="separator" className={cn('h-px w-full bg-border', className)} {...props} />;
}
