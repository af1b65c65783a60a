import { createHmac, randomBytes } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 (no padding), as authenticator apps expect for secrets. */
export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** A new TOTP secret: 160 random bits, the HMAC-SHA-1 key size RFC 4226 recommends. */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** The otpauth URI an authenticator app reads from the QR code (or typed in by hand). */
export function otpauthUri(secretBase32: string, accountEmail: string, issuer = 'Healthcare RCM'): string {
  const label = encodeURIComponent(`${issuer}:${accountEmail}`);
  const params = new URLSearchParams({ secret: secretBase32, issuer, algorithm: 'SHA1', digits: '6', period: '30' });
  return `otpauth://totp/${label}?${params.toString()}`;
}

export function totpStep(time: Date): number {
  return Math.floor(time.getTime() / 30_000);
}

function base32Decode(input: string): Buffer {
  const alphabet = BASE32;
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of input.replace(/=+$/, '').toUpperCase()) {
    const idx = alphabet.indexOf(ch);
    if (idx < 0) throw new Error('invalid base32 secret');
    value = (value << 5) | idx;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 6238 TOTP (SHA-1, 30 s, 6 digits) for the given time step. */
export function totpAt(secretBase32: string, time: Date, stepOffset = 0): string {
  const counter = totpStep(time) + stepOffset;
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac('sha1', base32Decode(secretBase32)).update(msg).digest();
  const offset = (digest[digest.length - 1] ?? 0) & 0x0f;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
}

/** Accepts the current code and one step either side, for clock drift between phone and server. */
export function totpMatches(secretBase32: string, code: string, now: Date): boolean {
  return [-1, 0, 1].some((offset) => totpAt(secretBase32, now, offset) === code);
}

/**
 * The time step whose code this is (the current one or one either side), or null. The caller refuses a
 * step at or before the last one accepted, so a code works once.
 */
export function totpMatchingStep(secretBase32: string, code: string, now: Date): number | null {
  for (const offset of [-1, 0, 1]) {
    if (totpAt(secretBase32, now, offset) === code) return totpStep(now) + offset;
  }
  return null;
}
