import { describe, expect, it } from 'vitest';
import { evaluateDbEncryption, evaluateSecurityHeaders, findDeclarationIssues } from './compliance.checks';
import { complianceScores } from './compliance.scores';

const goodHeaders = {
  'content-security-policy': "default-src 'self';script-src 'self';object-src 'none';frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
};

describe('security header scan', () => {
  it('passes strict headers and fails inline scripts, a missing CSP or nosniff, and HTTPS without HSTS', () => {
    expect(evaluateSecurityHeaders(goodHeaders, false)).toMatchObject({
      status: 'pass',
      message: 'No high severity issues',
    });
    const inline = evaluateSecurityHeaders(
      { ...goodHeaders, 'content-security-policy': "default-src 'self'; script-src 'self' 'unsafe-inline'" },
      false,
    );
    expect(inline.status).toBe('fail');
    expect(inline.details[0]).toMatch(/unsafe scripts/);
    const { 'content-security-policy': _csp, ...noCsp } = goodHeaders;
    expect(evaluateSecurityHeaders(noCsp, false).details).toContain('High: no Content-Security-Policy header');
    expect(evaluateSecurityHeaders({ ...goodHeaders, 'x-content-type-options': undefined }, false).status).toBe('fail');
    expect(evaluateSecurityHeaders(goodHeaders, true).status).toBe('fail');
    expect(
      evaluateSecurityHeaders({ ...goodHeaders, 'strict-transport-security': 'max-age=31536000' }, true).status,
    ).toBe('pass');
  });
});

describe('database encryption', () => {
  it('verifies AES 256 only from an encrypted connection with a 256-bit AES cipher', () => {
    expect(evaluateDbEncryption(null).status).toBe('fail');
    expect(evaluateDbEncryption({ ssl: false, version: null, cipher: null, bits: null }).status).toBe('fail');
    expect(
      evaluateDbEncryption({ ssl: true, version: 'TLSv1.3', cipher: 'TLS_AES_256_GCM_SHA384', bits: 256 }),
    ).toMatchObject({ status: 'pass', message: 'AES 256 verified' });
    expect(
      evaluateDbEncryption({ ssl: true, version: 'TLSv1.3', cipher: 'TLS_AES_128_GCM_SHA256', bits: 128 }).status,
    ).toBe('fail');
  });
});

describe('route declarations', () => {
  it('accepts the sign-in flow and health as public and nothing else under /api', () => {
    expect(
      findDeclarationIssues([
        { method: 'POST', url: '/api/auth/login', permission: 'public' },
        { method: 'GET', url: '/api/health', permission: 'public' },
        { method: 'GET', url: '/*', permission: 'public' },
        { method: 'GET', url: '/api/claims', permission: 'claims:read' },
      ]),
    ).toEqual([]);
    expect(findDeclarationIssues([{ method: 'GET', url: '/api/claims/export', permission: 'public' }])).toEqual([
      'GET /api/claims/export answers without a session (declared public)',
    ]);
  });
});

describe('compliance scores', () => {
  it('counts every item and gap as one control with full, half or no credit', () => {
    const s = complianceScores(
      [
        { safeguard: 'Technical', status: 'Compliant' },
        { safeguard: 'Technical', status: 'Partial' },
        { safeguard: 'Administrative', status: 'Not compliant' },
      ],
      [
        { safeguard: 'Technical', status: 'Open' },
        { safeguard: 'Physical', status: 'In Progress' },
        { safeguard: 'Physical', status: 'Closed' },
      ],
    );
    expect(s.overall).toEqual({ percent: 50, earned: 3, possible: 6 });
    expect(s.technical).toEqual({ percent: 50, earned: 1.5, possible: 3 });
    expect(complianceScores([], []).overall.percent).toBe(0);
  });
});
