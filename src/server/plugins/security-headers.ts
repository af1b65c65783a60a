import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Runs helmet's middleware once against a recording response and returns the headers it sets. Our
 * options are static (no per-request nonces), so every answer carries the same headers; see
 * docs/adr/0004-security-headers-computed-once.md for why this replaces @fastify/helmet.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  // Helmet 8 throws a bad option at once rather than passing it to `next`.
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => {});
  return headers;
}

/**
 * The headers of API answers (OWASP REST Security Cheat Sheet): JSON is never a document, so nothing may
 * load from it, frame it or store it; PHI must never be kept by a browser or proxy (no-store). Shorter
 * than a page's set, which matters on small cached answers.
 */
export function apiHeadersFrom(pageHeaders: Record<string, string>): Record<string, string> {
  const hsts = pageHeaders['strict-transport-security'];
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
    ...(hsts ? { 'strict-transport-security': hsts } : {}),
  };
}

/**
 * The path that decides which headers an answer gets: the matched route's own path, as the router read it
 * (`/%61pi/portal/statement` is the route `/api/portal/statement`, whose answer is PHI). A wildcard route
 * or no route at all: the decoded request path; a path that does not decode gets the strict API set.
 */
export function headerPathOf(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  if (route !== undefined && !route.includes('*')) return route;
  const raw = request.url.split('?')[0] ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return '/api/';
  }
}

/**
 * Every answer gets its security headers when the request arrives, so refusals, errors and 404s carry
 * them too (Fastify keeps headers set before an error): pages and client files helmet's set for
 * `options`, answers under `/api/` the API set.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions) {
  const pageHeaders = helmetHeaders(options);
  const apiHeaders = apiHeadersFrom(pageHeaders);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headerPathOf(request).startsWith('/api/') ? apiHeaders : pageHeaders);
    done();
  });
}
