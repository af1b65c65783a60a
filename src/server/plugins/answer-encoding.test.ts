import Fastify from 'fastify';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_FROM_CHARS, encode, registerAnswerEncoding } from './answer-encoding';

const big = JSON.stringify({
  items: Array.from({ length: 60 }, (_, i) => ({ id: i, name: `Patient ${i}`, balanceCents: i * 137 })),
});
const small = JSON.stringify({ ok: true });

const app = Fastify();
beforeAll(async () => {
  registerAnswerEncoding(app);
  app.get('/big', (_request, reply) => reply.type('application/json').send(big));
  app.get('/small', (_request, reply) => reply.type('application/json').send(small));
  await app.ready();
});
afterAll(() => app.close());

describe('encode', () => {
  it('gives text that decodes to the answer, at either effort, in brotli and gzip', () => {
    for (const effort of ['kept', 'once'] as const) {
      expect(brotliDecompressSync(encode(big, 'br', effort)).toString()).toBe(big);
      expect(gunzipSync(encode(big, 'gzip', effort)).toString()).toBe(big);
    }
  });
});

describe('an answer computed for one request', () => {
  it('is compressed as the client accepts, decoding to the same JSON', async () => {
    for (const [header, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const response = await app.inject({ url: '/big', headers: { 'accept-encoding': header } });
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers.vary).toBe('accept-encoding');
      const decoded = encoding === 'br' ? brotliDecompressSync(response.rawPayload) : gunzipSync(response.rawPayload);
      expect(decoded.toString()).toBe(big);
      expect(response.rawPayload.length).toBeLessThan(big.length / 2);
    }
  });

  it('goes as it is when the client accepts no compression, or when it is short', async () => {
    expect(small.length).toBeLessThan(COMPRESS_FROM_CHARS);
    const plain = await app.inject({ url: '/big', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(big);
    const short = await app.inject({ url: '/small', headers: { 'accept-encoding': 'br' } });
    expect(short.headers['content-encoding']).toBeUndefined();
    expect(short.body).toBe(small);
  });
});
