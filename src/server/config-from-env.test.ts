import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { configFromEnv } from './config-from-env';
import { DEFAULT_CONFIG } from './context';

describe('configFromEnv', () => {
  it('keeps the sign-in limit at its default (20 a minute) when LOGIN_RATE_LIMIT_PER_MINUTE is unset or empty', () => {
    expect(configFromEnv({}).loginRateLimitPerMinute).toBe(20);
    expect(configFromEnv({ LOGIN_RATE_LIMIT_PER_MINUTE: '' }).loginRateLimitPerMinute).toBe(
      DEFAULT_CONFIG.loginRateLimitPerMinute,
    );
  });

  it('takes a clinic-wide sign-in limit from LOGIN_RATE_LIMIT_PER_MINUTE', () => {
    expect(configFromEnv({ LOGIN_RATE_LIMIT_PER_MINUTE: '120' }).loginRateLimitPerMinute).toBe(120);
    expect(configFromEnv({ LOGIN_RATE_LIMIT_PER_MINUTE: '1' }).loginRateLimitPerMinute).toBe(1);
  });

  it.each(['0', '-5', '1.5', 'abc', ' 20', '1e3', '9999999999'])(
    'refuses to start with LOGIN_RATE_LIMIT_PER_MINUTE=%j, naming the variable and the rule',
    (value) => {
      expect(() => configFromEnv({ LOGIN_RATE_LIMIT_PER_MINUTE: value })).toThrow(
        `LOGIN_RATE_LIMIT_PER_MINUTE must be a whole number from 1 up (got "${value}")`,
      );
    },
  );

  it('reads the demo mode and secure cookies as before', () => {
    expect(configFromEnv({}).demoMode).toBe(true);
    expect(configFromEnv({ DEMO_MODE: 'false' }).demoMode).toBe(false);
    expect(configFromEnv({}).secureCookies).toBe(false);
    expect(configFromEnv({ SECURE_COOKIES: 'true' }).secureCookies).toBe(true);
  });

  it('answers to loopback and the machine’s own names when ALLOWED_HOSTS is unset or empty', () => {
    for (const env of [{}, { ALLOWED_HOSTS: '' }, { ALLOWED_HOSTS: ' , ' }]) {
      const hosts = configFromEnv(env).allowedHosts;
      expect(hosts).toEqual(expect.arrayContaining(['localhost', '127.0.0.1', '[::1]', hostname().toLowerCase()]));
    }
  });

  it('takes the names from ALLOWED_HOSTS, trimmed and lower-cased, in place of the default', () => {
    expect(configFromEnv({ ALLOWED_HOSTS: 'rcm.clinic.example, LB-1.internal,10.0.0.5,[::1]' }).allowedHosts).toEqual([
      'rcm.clinic.example',
      'lb-1.internal',
      '10.0.0.5',
      '[::1]',
    ]);
  });

  it.each([
    'http://rcm.clinic.example',
    'rcm.clinic.example:443',
    '*.clinic.example',
    '::1',
    'rcm clinic',
    'a/b',
    '-x.example',
  ])('refuses to start with ALLOWED_HOSTS=%j, naming the variable and the rule', (value) => {
    expect(() => configFromEnv({ ALLOWED_HOSTS: `localhost,${value}` })).toThrow(
      `ALLOWED_HOSTS must list host names or addresses (IPv6 in brackets) without scheme or port (got "${value.toLowerCase()}")`,
    );
  });
});
