import { ROLES, type Role } from '@/shared/access';
import type { ErrorEnvelope, FieldError } from '@/shared/api';

/**
 * A non-OK answer. Its message is "{status}: {response text}" (or the status text when the
 * body is empty); the parsed envelope is kept for screens that show a field's error or a specific text.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null,
    readonly serverMessage: string | null,
    readonly fields: FieldError[],
    readonly retryAfterSeconds: number | null,
    /** The parsed JSON body, for answers that carry more than the envelope (e.g. an import's row report). */
    readonly body: unknown = null,
  ) {
    super(message);
  }
}

const SESSION_STORAGE_KEY = 'rcm.session';

/** The session's role is kept in local storage and sent on every request as X-User-Role.
 * The server takes the role from its own session only (docs/access.md); the header is informational. */
function storedRole(): Role {
  try {
    const role = (JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY) ?? '{}') as { role?: unknown }).role;
    return ROLES.find((known) => known === role) ?? 'guest';
  } catch {
    return 'guest';
  }
}

let currentRole: Role = typeof localStorage === 'undefined' ? 'guest' : storedRole();
let csrfToken: string | null = null;

export function setRequestIdentity(session: { email: string; role: Role } | null, token: string | null) {
  currentRole = session?.role ?? 'guest';
  csrfToken = token;
  try {
    if (session)
      localStorage.setItem(
        SESSION_STORAGE_KEY,
        JSON.stringify({ email: session.email, role: session.role, mfa: true }),
      );
    else localStorage.removeItem(SESSION_STORAGE_KEY);
  } catch {
    // Storage may be unavailable (private mode); the header then says guest, which grants nothing.
  }
}

/**
 * Reads the error envelope (shared/api.ts) without zod: this module is on the sign-in screen's path, and
 * zod stays out of the first download (it comes with the screens that validate forms). Fields of the wrong
 * type are dropped, as the schema would have refused them.
 */
function readErrorEnvelope(body: unknown): ErrorEnvelope['error'] | null {
  if (typeof body !== 'object' || body === null) return null;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return null;
  const { code, message, fields, retryAfterSeconds } = error as Record<string, unknown>;
  if (typeof code !== 'string' || typeof message !== 'string') return null;
  const fieldErrors = Array.isArray(fields)
    ? fields.filter(
        (f): f is FieldError =>
          typeof f === 'object' &&
          f !== null &&
          typeof (f as FieldError).field === 'string' &&
          typeof (f as FieldError).message === 'string',
      )
    : undefined;
  return {
    code,
    message,
    fields: fieldErrors,
    retryAfterSeconds: Number.isInteger(retryAfterSeconds) ? (retryAfterSeconds as number) : undefined,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * A call to the API with the session's headers. `body` goes as JSON; `text` goes as it is, with `contentType`
 * (text/plain by default), for the few endpoints that take a file's text (an X12 acknowledgement).
 */
export async function apiFetch<T>(
  path: string,
  init: {
    method?: string;
    body?: unknown;
    text?: string;
    contentType?: string;
    /** More request headers (a file's name beside a body that is the file itself). */
    headers?: Record<string, string>;
    signal?: AbortSignal;
  } = {},
): Promise<T> {
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = { ...init.headers, 'X-User-Role': currentRole, Accept: 'application/json' };
  if (init.text !== undefined) headers['Content-Type'] = init.contentType ?? 'text/plain';
  else if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: init.text ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
    signal: init.signal,
  });
  if (!response.ok) {
    const text = await response.text();
    const body = parseJson(text);
    const error = readErrorEnvelope(body);
    throw new ApiError(
      response.status,
      `${response.status}: ${text || response.statusText}`,
      error?.code ?? null,
      error?.message ?? null,
      error?.fields ?? [],
      error?.retryAfterSeconds ?? null,
      body,
    );
  }
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
