import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signInAs, type TestApp } from '@/testing/test-app';

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
  it('pages and unknown page paths carry the strict page headers (helmet)', async () => {
    for (const url of ['/', '/claims', '/no-such-page']) {
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

  it('API answers, refusals, bad requests and unknown endpoints load nothing, frame nothing and are never stored', async () => {
    const admin = await signInAs(plain.app, 'admin');
    const answers = [
      await plain.app.inject({ method: 'GET', url: '/api/health' }),
      await plain.app.inject({ method: 'GET', url: '/api/claims' }), // 401
      await plain.app.inject({ method: 'GET', url: '/api/no-such-thing' }), // 404
      await admin.request({ url: '/api/claims?limit=0' }), // 400
      await admin.request({ url: '/api/claims?limit=50', headers: { 'accept-encoding': 'br' } }), // compressed
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 401, 404, 400, 200]);
    for (const response of answers) {
      expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('headers follow the matched route, not the raw path: a percent-encoded API path gets the API set', async () => {
    const patient = await signInAs(plain.app, 'patient');
    for (const url of ['/%61pi/portal/statement', '/%61%70%69/portal/statement']) {
      const response = await patient.request({ url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(response.headers['x-frame-options']).toBe('DENY');
    }
    const unknown = await plain.app.inject({ method: 'GET', url: '/%61pi/no-such-thing' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['cache-control']).toBe('no-store');
  });

  it('HSTS and upgrade-insecure-requests only when served over HTTPS', async () => {
    for (const url of ['/api/health', '/']) {
      const overHttp = await plain.app.inject({ method: 'GET', url });
      expect(overHttp.headers['strict-transport-security']).toBeUndefined();
      expect(String(overHttp.headers['content-security-policy'])).not.toContain('upgrade-insecure-requests');
      const overHttps = await behindHttps.app.inject({ method: 'GET', url });
      expect(overHttps.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    }
    const page = await behindHttps.app.inject({ method: 'GET', url: '/' });
    expect(String(page.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
  });
});
