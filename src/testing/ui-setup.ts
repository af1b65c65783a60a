import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { failOnUnansweredRequests } from './fake-api';

// In the ui project the files of a worker share one happy-dom page (vitest.config.ts; fresh-modules.ts gives
// them fresh modules of our own): each starts, as on a page of its own, with empty storage, no cookies,
// a bare root element and an empty body.
localStorage.clear();
sessionStorage.clear();
for (const cookie of document.cookie.split(';')) {
  const name = cookie.split('=')[0]?.trim();
  if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
}
for (const attribute of [...document.documentElement.attributes])
  document.documentElement.removeAttribute(attribute.name);
document.body.replaceChildren();
document.title = '';

// findBy* and waitFor wait 1 s by default; beside the browser tests on two shared cores, a screen with a
// long table can take longer to render. A wait that never comes true still fails, just later.
configure({ asyncUtilTimeout: 5_000 });

// Radix Select and Dialog call pointer capture and scrollIntoView; happy-dom has them (jsdom did not), and these
// stand-ins only fill in for a test DOM without them.
const element = Element.prototype as unknown as Record<string, unknown>;
element.hasPointerCapture ??= () => false;
element.releasePointerCapture ??= () => {};
element.scrollIntoView ??= () => {};

// catchDownloads (ui-browser.ts) replaces these to see what a screen downloads: stand-ins for a test DOM
// without Blob URLs (happy-dom has them).
if (!('createObjectURL' in URL))
  Object.assign(URL, { createObjectURL: () => 'blob:unused', revokeObjectURL: () => {} });

// happy-dom has no window.print (a browser opens its print dialog): a stand-in that does nothing, which
// catchPrint (ui-browser.ts) spies on to see that a screen asked to print.
if (typeof window.print !== 'function') Object.assign(window, { print: () => {} });

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  failOnUnansweredRequests();
});
