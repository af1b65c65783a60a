import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/** Smaller answers go uncompressed: the headers would outweigh the saving. */
export const COMPRESS_FROM_CHARS = 1024;

export type Encoding = 'br' | 'gzip' | 'identity';
/** Browsers send a handful of distinct Accept-Encoding values: each is parsed once. */
const negotiated = new Map<string, Encoding>();

/** br, then gzip, as the client accepts them (a q of 0 refuses); otherwise the text as it is. */
export function preferredEncoding(header: string | undefined): Encoding {
  const key = header ?? '';
  let encoding = negotiated.get(key);
  if (encoding === undefined) {
    encoding = negotiate(key);
    if (negotiated.size < 100) negotiated.set(key, encoding);
  }
  return encoding;
}

function negotiate(header: string): Encoding {
  const accepted = new Set(
    header
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => !q || Number(q.trim().replace(/^q=/, '')) > 0)
      .map(([name]) => (name ?? '').trim().toLowerCase()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return 'identity';
}

/**
 * How hard brotli works: `kept` for an answer the cache will send many times (quality 4, most of brotli's
 * gain; 11 costs ~10× as much), `once` for an answer computed for one request (quality 2). Measured on the
 * bench database's answers (docs/performance.md, "Compressing an answer sent once"): a Claims page of 15 KB
 * took 321 µs at quality 4 and 83 µs at quality 2, for 11% more bytes (1,995 and 2,220).
 */
export type EncodingEffort = 'kept' | 'once';
const BROTLI_QUALITY: Record<EncodingEffort, number> = { kept: 4, once: 2 };

export function encode(text: string, encoding: 'br' | 'gzip', effort: EncodingEffort): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(text, { params: { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY[effort] } })
    : gzipSync(text);
}

const COMPRESSIBLE = /^(application\/json|text\/)/;

/**
 * Compresses JSON and text answers for clients that accept br or gzip. Answers that already carry a
 * Content-Encoding (the answer cache's stored forms, the client's precompressed files) pass untouched.
 * Registered after the answer cache, whose onSend hook keeps the JSON text before it is encoded here.
 * Why not @fastify/compress: in a CPU profile of the claims-list load its per-route hooks cost ~35 µs of
 * ~190 µs per cached answer, though a cached answer is compressed already; we only compress whole strings.
 */
export function registerAnswerEncoding(app: FastifyInstance) {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (typeof payload !== 'string' || payload.length < COMPRESS_FROM_CHARS || reply.hasHeader('content-encoding')) {
      return done(null, payload);
    }
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    const type = reply.getHeader('content-type');
    if (encoding === 'identity' || typeof type !== 'string' || !COMPRESSIBLE.test(type)) return done(null, payload);
    reply.header('content-encoding', encoding).header('vary', 'accept-encoding');
    done(null, encode(payload, encoding, 'once'));
  });
}
