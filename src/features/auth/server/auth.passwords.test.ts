import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './auth.passwords';

describe('password hashes', () => {
  it("are argon2id at OWASP's minimum cost (19 MiB, two passes, one lane) with a salt of their own", async () => {
    const first = await hashPassword('correct horse battery staple');
    const second = await hashPassword('correct horse battery staple');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(second).not.toBe(first);
  });

  it('verify the password they were made from and no other, and a malformed hash verifies nothing', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(await verifyPassword(stored, 'correct horse battery staple')).toBe(true);
    expect(await verifyPassword(stored, 'correct horse battery stapl')).toBe(false);
    expect(await verifyPassword('not a hash', 'correct horse battery staple')).toBe(false);
  });
});
