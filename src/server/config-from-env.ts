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
    clientDir: path.join(projectRoot(), 'dist', 'client'),
  };
}
