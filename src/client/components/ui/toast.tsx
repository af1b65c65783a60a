import { useSyncExternalStore } from 'react';
import * as ToastPrimitive from '@radix-ui/react-toast';
import { X } from 'lucide-react';
import { cn } from '@/client/lib/cn';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
}

interface ToastState extends ToastInput {
  key: number;
  open: boolean;
}

// One toast at a time; a new one replaces the previous one.
let current: ToastState | null = null;
let nextKey = 1;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

export function toast(input: ToastInput): void {
  current = { ...input, key: nextKey++, open: true };
  emit();
}

function dismiss(key: number) {
  if (current?.key === key) {
    current = { ...current, open: false };
    emit();
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** 5000 ms, swipe right past 50 px to dismiss, F8 focuses the toast region. */
export function Toaster() {
  const shown = useSyncExternalStore(subscribe, () => current);
  return (
    <ToastPrimitive.Provider duration={5000} swipeDirection="right" swipeThreshold={50}>
      {shown && (
        <ToastPrimitive.Root
          key={shown.key}
          open={shown.open}
          onOpenChange={(open) => !open && dismiss(shown.key)}
          className={cn(
            'relative flex w-full items-start gap-3 rounded-md border p-4 pr-10 shadow-lg',
            shown.variant === 'destructive'
              ? 'border-destructive bg-destructive text-destructive-foreground'
              : 'border-border bg-card text-card-foreground',
          )}
        >
          <div className="grid gap-1">
            <ToastPrimitive.Title className="text-sm font-semibold">{shown.title}</ToastPrimitive.Title>
            {shown.description && (
              <ToastPrimitive.Description className="text-sm opacity-95">
                {shown.description}
              </ToastPrimitive.Description>
            )}
          </div>
          <ToastPrimitive.Close
            aria-label="Close"
            className="absolute top-2 right-2 rounded-sm p-1 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            <X className="size-4" aria-hidden="true" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      )}
      <ToastPrimitive.Viewport
        hotkey={['F8']}
        className="fixed right-0 bottom-0 z-[100] m-0 flex w-full max-w-sm list-none flex-col gap-2 p-4 outline-none"
      />
    </ToastPrimitive.Provider>
  );
}
