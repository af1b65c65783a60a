import { roleSchema, type Role } from '@/shared/access';
import { errorEnvelopeSchema, type FieldError } from '@/shared/api';

/**
 * A non-OK answer. SPEC 8: its message is "{status}: {response text}" (or the status text when the
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

/** SPEC 3 and 6: the session's role is kept in local storage and sent on every request as X-User-Role.
 * The server takes the role from its own session only (DECISIONS 1); the header is informational. */
function storedRole(): Role {
  try {
    const parsed = roleSchema.safeParse(
      (JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY) ?? '{}') as { role?: unknown }).role,
    );
    return parsed.success ? parsed.data : 'guest';
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export async function apiFetch<T>(
  path: string,
  init: { method?: string; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = { 'X-User-Role': currentRole, Accept: 'application/json' };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: init.signal,
  });
  if (!response.ok) {
    const text = await response.text();
    const body = parseJson(text);
    const envelope = errorEnvelopeSchema.safeParse(body);
    const error = envelope.success ? envelope.data.error : null;
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
