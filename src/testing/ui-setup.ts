import { afterEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { failOnUnansweredRequests } from './fake-api';

// Radix Select and Dialog use pointer capture and scrollIntoView, which jsdom does not implement.
const element = Element.prototype as unknown as Record<string, unknown>;
element.hasPointerCapture ??= () => false;
element.releasePointerCapture ??= () => {};
element.scrollIntoView ??= () => {};

// jsdom has no Blob URLs; catchDownloads (ui-browser.ts) replaces these to see what a screen downloads.
if (!('createObjectURL' in URL))
  Object.assign(URL, { createObjectURL: () => 'blob:unused', revokeObjectURL: () => {} });

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  failOnUnansweredRequests();
});
