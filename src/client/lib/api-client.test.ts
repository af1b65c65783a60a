import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiFetch, setRequestIdentity } from './api-client';

function respond(status: number, body: string, statusText = '') {
  return vi.fn(() => Promise.resolve(new Response(body || null, { status, statusText })));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiFetch', () => {
  it('turns a non-OK answer into "{status}: {text}" with the envelope kept', async () => {
    const body = JSON.stringify({ error: { code: 'FORBIDDEN', message: 'You do not have permission to do this.' } });
    vi.stubGlobal('fetch', respond(403, body));
    const error = await apiFetch('/api/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(`403: ${body}`);
    expect((error as ApiError).code).toBe('FORBIDDEN');
    expect((error as ApiError).serverMessage).toBe('You do not have permission to do this.');
  });

  it('keeps the parsed body for answers that carry more than the envelope', async () => {
    const body = { error: { code: 'IMPORT_INVALID', message: 'nothing was imported' }, errors: [{ row: 2 }] };
    vi.stubGlobal('fetch', respond(400, JSON.stringify(body)));
    const error = (await apiFetch('/api/x').catch((e: unknown) => e)) as ApiError;
    expect(error.body).toEqual(body);
    expect(error.code).toBe('IMPORT_INVALID');
  });

  it('keeps field errors and the retry delay of the envelope, and no code for a body that is not an envelope', async () => {
    const body = {
      error: {
        code: 'VALIDATION_FAILED',
        message: 'Invalid input',
        fields: [{ field: 'email', message: 'must be an email address' }],
        retryAfterSeconds: 30,
      },
    };
    vi.stubGlobal('fetch', respond(400, JSON.stringify(body)));
    const error = (await apiFetch('/api/x').catch((e: unknown) => e)) as ApiError;
    expect(error.fields).toEqual([{ field: 'email', message: 'must be an email address' }]);
    expect(error.retryAfterSeconds).toBe(30);

    vi.stubGlobal('fetch', respond(500, JSON.stringify({ error: 'boom' })));
    const plain = (await apiFetch('/api/x').catch((e: unknown) => e)) as ApiError;
    expect(plain.code).toBeNull();
    expect(plain.fields).toEqual([]);
  });

  it('uses the status text when the body is empty', async () => {
    vi.stubGlobal('fetch', respond(502, '', 'Bad Gateway'));
    await expect(apiFetch('/api/x')).rejects.toThrow('502: Bad Gateway');
  });

  it('sends the role header on every call and the CSRF token on writes', async () => {
    const fetchMock = vi.fn((_url: string, _init: RequestInit) => Promise.resolve(new Response('{}', { status: 200 })));
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('localStorage', { setItem: vi.fn(), removeItem: vi.fn(), getItem: vi.fn() });
    setRequestIdentity({ email: 'doctor@healthcare.demo', role: 'doctor' }, 'token-1');
    await apiFetch('/api/a');
    await apiFetch('/api/b', { method: 'PATCH', body: { x: 1 } });
    const [getCall, patchCall] = fetchMock.mock.calls;
    expect((getCall?.[1].headers as Record<string, string>)['X-User-Role']).toBe('doctor');
    expect((getCall?.[1].headers as Record<string, string>)['X-CSRF-Token']).toBeUndefined();
    expect((patchCall?.[1].headers as Record<string, string>)['X-CSRF-Token']).toBe('token-1');
  });
});
