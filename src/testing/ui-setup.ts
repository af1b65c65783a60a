import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

// Radix Select and Dialog use pointer capture and scrollIntoView, which jsdom does not implement.
const element = Element.prototype as unknown as Record<string, unknown>;
element.hasPointerCapture ??= () => false;
element.releasePointerCapture ??= () => {};
element.scrollIntoView ??= () => {};

afterEach(() => {
  cleanup();
});
