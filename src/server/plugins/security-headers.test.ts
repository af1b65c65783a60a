import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@/testing/test-app';

let plain: TestApp;
let behindHttps: TestApp;

beforeAll(async () => {
  plain = await createTestApp();
  behindHttps = await createTestApp({ secureCookies: true });
});

afterAll(async () => {
  await plain.close();
  await behindHttps.close();
});

describe('security headers on every answer', () => {
  it('answers, refusals and unknown paths all carry the same strict headers', async () => {
    for (const url of ['/api/health', '/api/claims', '/api/no-such-thing']) {
      const response = await plain.app.inject({ method: 'GET', url });
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
  });

  it('HSTS and upgrade-insecure-requests only when served over HTTPS', async () => {
    const overHttp = await plain.app.inject({ method: 'GET', url: '/api/health' });
    expect(overHttp.headers['strict-transport-security']).toBeUndefined();
    expect(String(overHttp.headers['content-security-policy'])).not.toContain('upgrade-insecure-requests');
    const overHttps = await behindHttps.app.inject({ method: 'GET', url: '/api/health' });
    expect(overHttps.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(String(overHttps.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
  });

  it('API answers are never stored by a browser or proxy', async () => {
    const response = await plain.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['cache-control']).toBe('no-store');
  });
});
