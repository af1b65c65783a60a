// Minimal types for async-exit-hook 2.0.1 (no published types): only what embedded-exit-hooks.ts uses.
declare module 'async-exit-hook' {
  interface ExitHook {
    (hook: (done?: () => void) => void): void;
    unhookEvent(event: string): void;
    hookedEvents(): string[];
  }
  const exitHook: ExitHook;
  export default exitHook;
}
