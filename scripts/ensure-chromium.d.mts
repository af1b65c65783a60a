/** The path of a Chromium for the browser tests and the client bench (see ensure-chromium.mjs). */
export function ensureChromium(): Promise<string>;
