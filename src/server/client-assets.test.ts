import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signInAs, type TestApp } from '@/testing/test-app';

const SCRIPT = `export const answer = ${JSON.stringify('x'.repeat(2000))};\n`;
const HTML = '<!doctype html><html lang="en"><body><div id="root"></div></body></html>\n';

describe('compressed answers: the built client (precompressed, long-cached) and the API', () => {
  let clientDir: string;
  let t: TestApp;

  beforeAll(async () => {
    clientDir = mkdtempSync(path.join(tmpdir(), 'client-assets-'));
    mkdirSync(path.join(clientDir, 'assets'));
    for (const [file, content] of [
      ['index.html', HTML],
      ['assets/index-abc123.js', SCRIPT],
    ] as const) {
      writeFileSync(path.join(clientDir, file), content);
      writeFileSync(path.join(clientDir, `${file}.gz`), gzipSync(content));
      writeFileSync(path.join(clientDir, `${file}.br`), brotliCompressSync(content));
    }
    t = await createTestApp({ clientDir });
  });

  afterAll(async () => {
    await t.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('sends the brotli file to a browser that accepts it, cached for a year as the name carries its hash', async () => {
    const res = await t.app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.rawPayload.length).toBeLessThan(SCRIPT.length / 4);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('falls back to gzip, then to the plain file', async () => {
    const gz = await t.app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await t.app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('sends index.html compressed but revalidated on every visit (it names the current hashed assets)', async () => {
    const res = await t.app.inject({ url: '/claims', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(HTML);
  });

  it('compresses API answers for browsers that accept it, and not for clients that do not', async () => {
    const admin = await signInAs(t.app, 'admin');
    const plain = await admin.request({ url: '/api/patients?limit=50' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();

    const br = await admin.request({ url: '/api/patients?limit=50', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('no-store');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gzip = await admin.request({ url: '/api/patients?limit=50', headers: { 'accept-encoding': 'br;q=0, gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toBe('accept-encoding');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());

    // Small answers are not worth it: the headers would outweigh the saving.
    const small = await admin.request({ url: '/api/health', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});
