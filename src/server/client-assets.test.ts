import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
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

describe('client paths that are missing or climb out of the client folder', () => {
  let root: string;
  let t: TestApp;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'client-paths-'));
    const clientDir = path.join(root, 'client');
    mkdirSync(path.join(clientDir, 'assets'), { recursive: true });
    writeFileSync(path.join(clientDir, 'index.html'), HTML);
    writeFileSync(path.join(clientDir, 'assets', 'index-abc123.js'), SCRIPT);
    // A file beside the client folder that no path may reach.
    writeFileSync(path.join(root, 'secret.txt'), 'SECRET-CONTENT');
    t = await createTestApp({ clientDir });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** A GET over a real connection with the path sent as written (app.inject resolves `..` first). */
  function rawGet(rawPath: string): Promise<{ statusCode: number; body: string }> {
    const { port } = t.app.server.address() as AddressInfo;
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: rawPath, headers: { host: 'localhost' } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it.each([
    '/assets/missing-0000.js',
    '/assets/../../etc/passwd',
    '/assets/../index.html',
    '/assets/../../secret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/assets/%2e%2e/%2e%2e/etc/passwd',
    '/assets/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
    '/assets/%252e%252e/%252e%252e/etc/passwd',
    '/assets/..%5c..%5cetc%5cpasswd',
    '/../../etc/passwd',
    '/%2e%2e/%2e%2e/etc/passwd',
  ])('%s answers 404 in the error envelope, as a missing file does', async (url) => {
    const res = await rawGet(url);
    expect(res.statusCode).toBe(404);
    expect((JSON.parse(res.body) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    expect(res.body).not.toContain('SECRET-CONTENT');
    expect(res.body).not.toContain('root:');
  });

  it('an existing asset and the client routes still answer', async () => {
    expect((await t.app.inject({ url: '/assets/index-abc123.js' })).statusCode).toBe(200);
    const page = await t.app.inject({ url: '/patients/12' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe(HTML);
  });

  it('an API path in percent-encoding is an API 404, not the client page', async () => {
    const res = await t.app.inject({ url: '/%61pi/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});
