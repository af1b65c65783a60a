import { vi } from 'vitest';
import type { ErrorEnvelope, FieldError } from '@/shared/api';

/** One request the screen sent, as the fake server saw it. */
export interface FakeRequest {
  method: string;
  /** The path without its query string. */
  path: string;
  /** The path with its query string, exactly as sent. */
  url: string;
  query: URLSearchParams;
  /** The values of a route's `:name` segments. */
  params: Record<string, string>;
  /** The parsed JSON body (a text body labelled otherwise: its text), or undefined when none was sent. */
  body: unknown;
  /** Date.now() when it was sent, so a fake clock measures the gaps between requests. */
  at: number;
}

class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

/** An answer with its own status; the body is sent as JSON. */
export function reply(status: number, body?: unknown): Reply {
  return new Reply(status, body);
}

/** A refusal in the envelope the real server sends (src/server/plugins/errors.ts). */
export function apiError(
  status: number,
  code: string,
  message: string,
  extra: { fields?: FieldError[]; retryAfterSeconds?: number } = {},
): Reply {
  const envelope: ErrorEnvelope = { error: { code, message, ...extra } };
  return new Reply(status, envelope);
}

/** A handler returning this never answers: the screen stays in its loading state. */
export const pending = Symbol('pending');

/**
 * What a route answers: a function of the request, or the answer itself. A plain value is a 200 with it
 * as JSON, `undefined` a 204, `reply`/`apiError` their status. A route that throws is a mistake in the
 * test: the screen gets a 500, and the test fails after it ends.
 */
export type Route =
  ((request: FakeRequest) => unknown) | object | string | number | boolean | typeof pending | null | undefined;

export interface FakeApi {
  /** Adds a route, or replaces the one with the same key ("METHOD /path", optionally "?name=value"). */
  on(key: string, route: Route): FakeApi;
  /** Every request, in the order sent. */
  readonly requests: readonly FakeRequest[];
  /** The requests a route key matches (its query, when given, must match too). */
  sent(key: string): FakeRequest[];
}

interface Matcher {
  key: string;
  method: string;
  segments: string[];
  query: URLSearchParams | null;
}

function matcherOf(key: string): Matcher {
  const [method, target] = key.split(' ');
  if (!method || !target?.startsWith('/')) throw new Error(`a route key is "METHOD /path", not "${key}"`);
  const [path = '', query] = target.split('?');
  return { key, method, segments: path.split('/'), query: query === undefined ? null : new URLSearchParams(query) };
}

/** The route's `:name` values when it matches the request, or null. */
function match(matcher: Matcher, method: string, path: string, query: URLSearchParams) {
  if (matcher.method !== method) return null;
  const segments = path.split('/');
  if (segments.length !== matcher.segments.length) return null;
  const params: Record<string, string> = {};
  for (const [i, expected] of matcher.segments.entries()) {
    const actual = segments[i] ?? '';
    if (expected.startsWith(':')) params[expected.slice(1)] = decodeURIComponent(actual);
    else if (expected !== actual) return null;
  }
  for (const [name, value] of matcher.query ?? []) if (query.get(name) !== value) return null;
  return params;
}

/** A route with a query or with fixed segments only is more specific than one without. */
function specificity(matcher: Matcher): number {
  return (matcher.query ? 2 : 0) + (matcher.segments.some((s) => s.startsWith(':')) ? 0 : 1);
}

let problems: string[] = [];

/** Called after each test (ui-setup.ts): a request no route answered, or whose route threw, fails the test. */
export function failOnUnansweredRequests() {
  const found = problems;
  problems = [];
  if (found.length > 0) throw new Error(`The fake API could not answer: ${found.join('; ')}`);
}

function respond(answer: unknown): Response {
  if (answer instanceof Reply) {
    if (answer.body === undefined) return new Response(null, { status: answer.status });
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
  }
  return respond(answer === undefined ? reply(204) : reply(200, answer));
}

function aborted(signal: AbortSignal | null | undefined): Promise<never> {
  return new Promise((_, reject) => {
    signal?.addEventListener('abort', () => reject(new DOMException('The request was aborted', 'AbortError')));
  });
}

function isOtherThanJson(headers: HeadersInit | undefined): boolean {
  const type = new Headers(headers).get('content-type');
  return type !== null && !type.includes('json');
}

/**
 * Replaces `fetch` with a fake server that answers from the routes the test gives: by method and path
 * (and query, when a key has one), in JSON and with status codes as the real server would. It records
 * every request; a request no route answers gets a 501 and fails the test after it ends.
 */
export function fakeApi(routes: Record<string, Route> = {}): FakeApi {
  const table = new Map<string, { matcher: Matcher; route: Route }>();
  const requests: FakeRequest[] = [];

  const find = (method: string, path: string, query: URLSearchParams) => {
    let best: { route: Route; params: Record<string, string>; rank: number } | null = null;
    for (const { matcher, route } of table.values()) {
      const params = match(matcher, method, path, query);
      const rank = specificity(matcher);
      if (params && (!best || rank >= best.rank)) best = { route, params, rank };
    }
    return best;
  };

  const fetchFake = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const parsed = new URL(url, 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const text = typeof init.body === 'string' ? init.body : undefined;
    const request: FakeRequest = {
      method,
      path: parsed.pathname,
      url,
      query: parsed.searchParams,
      params: {},
      // A body the client labels as something other than JSON (an X12 file as text/plain) is kept as its text.
      body: text === undefined ? undefined : isOtherThanJson(init.headers) ? text : (JSON.parse(text) as unknown),
      at: Date.now(),
    };
    requests.push(request);
    const found = find(method, request.path, request.query);
    if (!found) {
      problems.push(`no route for ${method} ${url}`);
      return respond(apiError(501, 'NOT_FAKED', `The fake API has no route for ${method} ${url}`));
    }
    request.params = found.params;
    const route = found.route;
    const answer = (async (): Promise<unknown> => {
      try {
        return typeof route === 'function' ? await (route as (r: FakeRequest) => unknown)(request) : route;
      } catch (error) {
        problems.push(`the route for ${method} ${url} threw ${String(error)}`);
        return apiError(500, 'INTERNAL', 'The server could not complete the request.');
      }
    })();
    const settled: unknown = await Promise.race([answer, aborted(init.signal)]);
    if (settled === pending) return Promise.race([new Promise<Response>(() => {}), aborted(init.signal)]);
    return respond(settled);
  };

  vi.stubGlobal('fetch', vi.fn(fetchFake));

  const api: FakeApi = {
    on(key, route) {
      table.set(key, { matcher: matcherOf(key), route });
      return api;
    },
    requests,
    sent(key) {
      const matcher = matcherOf(key);
      return requests.filter((r) => match(matcher, r.method, r.path, r.query));
    },
  };
  for (const [key, route] of Object.entries(routes)) api.on(key, route);
  return api;
}
