/**
 * A bounded in-memory cache whose entries are valid only in the generation they were made in (see
 * db/change-feed.ts) and for at most `ttlMs`. Least recently used entries go first when it is full.
 */
export class GenerationCache<V> {
  private readonly entries = new Map<string, { generation: number; expires: number; value: V; size: number }>();
  private bytes = 0;
  /** The key last moved to the end: a hot key read again and again is not re-inserted each time. */
  private newest: string | undefined;

  constructor(
    private readonly limits: { maxEntries: number; maxBytes: number; ttlMs: number },
    private readonly sizeOf: (value: V) => number = () => 1,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, generation: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.generation !== generation || entry.expires <= this.now()) {
      this.delete(key);
      return undefined;
    }
    // Re-inserting moves it to the end: Map iteration order is the LRU order.
    if (key !== this.newest) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.newest = key;
    }
    return entry.value;
  }

  set(key: string, generation: number, value: V): void {
    const size = this.sizeOf(value);
    if (size > this.limits.maxBytes) return;
    this.delete(key);
    this.entries.set(key, { generation, expires: this.now() + this.limits.ttlMs, value, size });
    this.newest = key;
    this.bytes += size;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      this.delete(oldest);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.size;
    if (key === this.newest) this.newest = undefined;
  }

  get size(): number {
    return this.entries.size;
  }
}
