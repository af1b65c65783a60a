import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptMfaSecret, encryptMfaSecret } from '@/features/auth/server/auth.mfa-crypto';
import { openSecret, sealSecret } from './secret-box';

describe('sealed secrets', () => {
  const key = randomBytes(32);

  it('opens only with the same key and associated data, and never holds the secret in clear', () => {
    const sealed = sealSecret(key, 'mailbox password', 'clearinghouse-mailbox');
    expect(sealed).not.toContain('mailbox password');
    expect(sealed).not.toBe(sealSecret(key, 'mailbox password', 'clearinghouse-mailbox'));
    expect(openSecret(key, sealed, 'clearinghouse-mailbox')).toBe('mailbox password');
    expect(() => openSecret(key, sealed, 'user:1')).toThrow();
    expect(() => openSecret(randomBytes(32), sealed, 'clearinghouse-mailbox')).toThrow();
    const [version, iv, tag, data] = sealed.split('.');
    const altered = [version, iv, tag, `${data!.slice(0, -2)}AA`].join('.');
    expect(() => openSecret(key, altered, 'clearinghouse-mailbox')).toThrow();
    expect(() => openSecret(key, 'v0.x.y.z', 'clearinghouse-mailbox')).toThrow(/unknown secret format/);
  });

  it('is what TOTP secrets were sealed with: bound to the user id', () => {
    const sealed = encryptMfaSecret(key, 'JBSWY3DPEHPK3PXP', 42);
    expect(openSecret(key, sealed, 'user:42')).toBe('JBSWY3DPEHPK3PXP');
    expect(decryptMfaSecret(key, sealSecret(key, 'JBSWY3DPEHPK3PXP', 'user:42'), 42)).toBe('JBSWY3DPEHPK3PXP');
    expect(() => decryptMfaSecret(key, sealed, 43)).toThrow();
  });
});
