import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A secret kept in the data folder, readable by this user only; created on first use. */
export async function dataFolderSecret(dataDir: string, file: string): Promise<string> {
  const where = path.join(dataDir, file);
  const existing = await readFile(where, 'utf8').catch(() => null);
  if (existing?.trim()) return existing.trim();
  await mkdir(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  // 'wx': a second server starting at the same moment does not overwrite the first one's secret.
  await writeFile(where, `${secret}\n`, { mode: 0o600, flag: 'wx' }).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  return (await readFile(where, 'utf8')).trim();
}

/** The audit chain's HMAC key: AUDIT_HMAC_KEY, else one generated into the data folder (docs/deploy.md). */
export async function auditHmacKey(env: NodeJS.ProcessEnv, dataDir: string): Promise<Buffer> {
  const configured = env.AUDIT_HMAC_KEY?.trim();
  if (configured !== undefined && configured !== '') {
    if (configured.length < 32) throw new Error('AUDIT_HMAC_KEY: must be at least 32 characters');
    return Buffer.from(configured, 'utf8');
  }
  return Buffer.from(await dataFolderSecret(dataDir, 'audit-hmac.key'), 'utf8');
}
