import path from 'node:path';
import { DEFAULT_CONFIG, type AppConfig } from './context';
import { projectRoot } from './db/client';

/** A whole number from 1 up, or the default when unset; anything else stops the start with the rule. */
function positiveIntegerFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[1-9][0-9]{0,8}$/.test(raw)) throw new Error(`${name} must be a whole number from 1 up (got "${raw}")`);
  return Number(raw);
}

/** A host name, an IPv4 address or an IPv6 address in brackets: no scheme, port, path or wildcard. */
const HOST_NAME = /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)$/;

/** ALLOWED_HOSTS: comma-separated names replacing the default list; unset or empty keeps the default. */
function allowedHostsFromEnv(env: NodeJS.ProcessEnv): readonly string[] {
  const names = (env.ALLOWED_HOSTS ?? '')
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n !== '');
  for (const name of names) {
    if (!HOST_NAME.test(name)) {
      throw new Error(
        `ALLOWED_HOSTS must list host names or addresses (IPv6 in brackets) without scheme or port (got "${name}")`,
      );
    }
  }
  return names.length === 0 ? DEFAULT_CONFIG.allowedHosts : [...new Set(names)];
}

export function configFromEnv(env: NodeJS.ProcessEnv): AppConfig {
  return {
    ...DEFAULT_CONFIG,
    demoMode: env.DEMO_MODE !== 'false',
    secureCookies: env.SECURE_COOKIES === 'true',
    // A clinic whose staff reach the app through one NAT address shares the per-client budget.
    loginRateLimitPerMinute: positiveIntegerFromEnv(
      env,
      'LOGIN_RATE_LIMIT_PER_MINUTE',
      DEFAULT_CONFIG.loginRateLimitPerMinute,
    ),
    allowedHosts: allowedHostsFromEnv(env),
    clientDir: path.join(projectRoot(), 'dist', 'client'),
  };
}
