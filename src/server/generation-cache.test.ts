import { describe, expect, it } from 'vitest';
import { GenerationCache } from './generation-cache';

function cacheAt(limits: { maxEntries: number; maxBytes: number; ttlMs: number }) {
  let now = 1_000;
  const cache = new GenerationCache<string>(
    limits,
    (text) => text.length,
    () => now,
  );
  return { cache, advance: (ms: number) => (now += ms) };
}

describe('GenerationCache', () => {
  it('serves an entry only in the generation it was made in', () => {
    const { cache } = cacheAt({ maxEntries: 10, maxBytes: 100, ttlMs: 60_000 });
    cache.set('a', 1, 'one');
    expect(cache.get('a', 1)).toBe('one');
    expect(cache.get('a', 2)).toBeUndefined();
    // A stale entry is dropped, not revived by an older generation.
    expect(cache.get('a', 1)).toBeUndefined();
  });

  it('forgets an entry after its time to live', () => {
    const { cache, advance } = cacheAt({ maxEntries: 10, maxBytes: 100, ttlMs: 1_000 });
    cache.set('a', 1, 'one');
    advance(999);
    expect(cache.get('a', 1)).toBe('one');
    advance(1);
    expect(cache.get('a', 1)).toBeUndefined();
  });

  it('drops the least recently used entries beyond its entry and byte limits', () => {
    const { cache } = cacheAt({ maxEntries: 2, maxBytes: 10, ttlMs: 60_000 });
    cache.set('a', 1, 'aaa');
    cache.set('b', 1, 'bbb');
    cache.get('a', 1); // a is now the most recent
    cache.set('c', 1, 'ccc');
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('a', 1)).toBe('aaa');
    expect(cache.get('c', 1)).toBe('ccc');

    cache.set('d', 1, 'dddddddd'); // 8 bytes: a and c (6) must go to stay within 10
    expect(cache.size).toBe(1);
    expect(cache.get('d', 1)).toBe('dddddddd');
    cache.set('huge', 1, 'x'.repeat(11)); // larger than the whole cache: not kept
    expect(cache.get('huge', 1)).toBeUndefined();
    expect(cache.get('d', 1)).toBe('dddddddd');
  });

  it('a key read again and again stays the most recent; the next to go is still the least recently used', () => {
    const { cache } = cacheAt({ maxEntries: 3, maxBytes: 100, ttlMs: 60_000 });
    cache.set('a', 1, 'a');
    cache.set('b', 1, 'b');
    cache.set('c', 1, 'c');
    for (let i = 0; i < 3; i += 1) cache.get('a', 1); // order b, c, a
    cache.get('b', 1); // c, a, b
    cache.get('a', 1); // c, b, a: a was read before, but not last
    cache.set('d', 1, 'd'); // c goes
    expect(cache.get('c', 1)).toBeUndefined();
    cache.delete('a'); // the most recent key gone, then set again: it is the newest once more
    cache.set('a', 1, 'a2'); // b, d, a
    cache.set('e', 1, 'e'); // b goes
    expect(cache.get('b', 1)).toBeUndefined();
    expect([cache.get('d', 1), cache.get('a', 1), cache.get('e', 1)]).toEqual(['d', 'a2', 'e']);
  });
});
