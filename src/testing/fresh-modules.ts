import { vi } from 'vitest';

// The first setup file of every project that runs several files in one process (`isolate: false` in
// vitest.config.ts). Packages (React, happy-dom, Fastify, Drizzle…) stay loaded for the worker's life, which is
// the saving; our own modules are evaluated afresh for each file, as they were in a process of their own,
// so module state (the audit key, the practice time zone, toasts, caches) cannot pass from one file to
// the next. The setup files after this one, and the test file, import the fresh modules.
vi.resetModules();
