/**
 * TOTP secrets are stored encrypted (AES-256-GCM, src/server/secret-box.ts) with a key kept outside the database,
 * so a copy of the database alone does not give anyone the second factor. The user id is bound in as associated
 * data: a ciphertext copied onto another account does not decrypt. The same key seals the clearinghouse
 * mailbox's password or key.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openSecret, sealSecret } from '@/server/secret-box';

export const MFA_KEY_FILE = 'mfa-encryption.key';

export function encryptMfaSecret(key: Buffer, secret: string, userId: number): string {
  return sealSecret(key, secret, `user:${userId}`);
}

export function decryptMfaSecret(key: Buffer, stored: string, userId: number): string {
  return openSecret(key, stored, `user:${userId}`);
}

function keyFrom(text: string, source: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new Error(`${source} must be 32 bytes in base64 (openssl rand -base64 32)`);
  return key;
}

/**
 * MFA_ENCRYPTION_KEY (32 bytes, base64), or else a per-install key in the data folder, created on first
 * start readable by the owner only. Losing the key means every user enrols again.
 */
export async function loadMfaKey(env: NodeJS.ProcessEnv, dataDir: string): Promise<{ key: Buffer; source: string }> {
  const fromEnv = env.MFA_ENCRYPTION_KEY;
  if (fromEnv !== undefined && fromEnv !== '')
    return { key: keyFrom(fromEnv, 'MFA_ENCRYPTION_KEY'), source: 'MFA_ENCRYPTION_KEY' };
  const file = path.join(dataDir, MFA_KEY_FILE);
  try {
    return { key: keyFrom(await readFile(file, 'utf8'), file), source: file };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await mkdir(dataDir, { recursive: true });
  const text = randomBytes(32).toString('base64');
  // 'wx': two servers starting at once on one folder cannot overwrite each other's key.
  await writeFile(file, `${text}\n`, { mode: 0o600, flag: 'wx' }).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  return { key: keyFrom(await readFile(file, 'utf8'), file), source: file };
}
