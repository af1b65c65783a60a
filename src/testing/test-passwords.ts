import { hash } from '@node-rs/argon2';

/**
 * The test template's demo accounts get argon2id hashes of a low cost (1 MiB, one pass) instead of the app's
 * OWASP minimum (19 MiB, two passes; auth.passwords.ts). The API tests sign in about 500 times a run, and each
 * sign-in verifies its hash at the cost the hash names: ~16 ms of CPU at the app's cost, 0.7 ms at this one
 * (8 CPU s a run, more beside the other steps of `npm test`), for nothing the tests check: the app's cost has
 * its own test (auth.passwords.test.ts), and sign-in still verifies a real argon2id hash.
 */
export function hashTestPassword(password: string): Promise<string> {
  return hash(password, { algorithm: 2 /* Argon2id */, memoryCost: 1024, timeCost: 1, parallelism: 1 });
}
