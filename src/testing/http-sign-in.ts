import type { Role } from '@/shared/access';
import { DEMO_ACCOUNTS } from '@/features/auth/auth.demo-accounts';

export interface HttpSession {
  /** The `sid=…` pair to send as the Cookie header. */
  cookie: string;
  csrfToken: string;
  email: string;
}

/**
 * Signs a demo account in to a server listening at `baseUrl` through both steps (password, then the MFA
 * code demo mode returns), as the sign-in screen does: for tests and benchmarks that run the real server
 * as a separate process rather than through app.inject.
 */
export async function signInOverHttp(baseUrl: string, role: Role): Promise<HttpSession> {
  const account = DEMO_ACCOUNTS.find((a) => a.role === role);
  if (!account) throw new Error(`no demo account for ${role}`);
  const json = { 'content-type': 'application/json' };
  const login = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  if (!login.ok) throw new Error(`sign-in as ${role} failed: ${login.status} ${await login.text()}`);
  const { challengeId, demoCode } = (await login.json()) as { challengeId: string; demoCode?: string };
  if (!demoCode) throw new Error('the server is not in demo mode: no MFA code to sign in with');
  const mfa = await fetch(`${baseUrl}/api/auth/mfa`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ challengeId, code: demoCode }),
  });
  if (!mfa.ok) throw new Error(`MFA as ${role} failed: ${mfa.status} ${await mfa.text()}`);
  const cookie = mfa.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .find((c) => c.startsWith('sid='));
  if (!cookie) throw new Error('no session cookie after MFA');
  const { csrfToken } = (await mfa.json()) as { csrfToken: string };
  return { cookie, csrfToken, email: account.email };
}
