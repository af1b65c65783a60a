/**
 * The path of a Chromium (see ensure-chromium.mjs): with `headlessShell`, the headless shell the browser tests
 * and the quick bench run on; otherwise the whole browser.
 */
export function ensureChromium(options?: { headlessShell?: boolean }): Promise<string>;
