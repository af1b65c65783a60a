import { recordNow } from '@/features/audit/server/audit.queries';
import type { AppDeps } from '../context';

const MINUTE_MS = 60_000;
/** Addresses tracked within one minute; refusals from further ones share one bucket, so memory stays bounded. */
const MAX_TRACKED = 10_000;
const OVERFLOW_ADDR = 'other addresses';

interface Bucket {
  addr: string;
  action: string;
  minute: number;
  /** Refusals after the first in this minute, not written one by one. */
  more: number;
}

export interface RefusalAudit {
  /**
   * Whether this anonymous refusal gets an entry of its own: the first of its kind from an address in a
   * minute does; the rest of that minute are counted and written as one summary entry once the minute is over.
   */
  admit(addr: string, action: string): Promise<boolean>;
  /** Writes the summaries of minutes that are over (all of them with `everything`, at shutdown). */
  flush(everything?: boolean): Promise<void>;
}

/**
 * Anonymous requests cost nothing to send, and each refusal used to append to the one audit chain (under its
 * lock): a flood of them filled the trail and queued every other write. Per client address, kind and minute
 * the first refusal is written and the others are counted, then written as one entry.
 */
export function refusalAudit(deps: Pick<AppDeps, 'db' | 'clock'>): RefusalAudit {
  const buckets = new Map<string, Bucket>();
  let sweptMinute = Math.floor(deps.clock().getTime() / MINUTE_MS);

  const writeSummaries = async (done: Bucket[]) => {
    for (const b of done) {
      await recordNow(deps.db, {
        actor: 'anonymous',
        action: 'access.refused.summary',
        resource: b.action,
        detail: `${b.more} more refused requests from ${b.addr} in minute ${new Date(b.minute * MINUTE_MS).toISOString().slice(0, 16)}Z`,
        at: deps.clock(),
        // The summary names the address it counts, whichever request happens to write it.
        clientAddr: b.addr === OVERFLOW_ADDR ? null : b.addr,
        userAgent: null,
      });
    }
  };

  const flush = async (everything = false) => {
    const minute = Math.floor(deps.clock().getTime() / MINUTE_MS);
    const done: Bucket[] = [];
    for (const [key, b] of buckets) {
      if (everything || b.minute < minute) {
        // Taken out before any await, so two flushes never write the same summary.
        buckets.delete(key);
        if (b.more > 0) done.push(b);
      }
    }
    sweptMinute = minute;
    await writeSummaries(done);
  };

  return {
    flush,
    async admit(addr, action) {
      const minute = Math.floor(deps.clock().getTime() / MINUTE_MS);
      if (minute !== sweptMinute) await flush();
      let key = `${addr}\n${action}`;
      if (!buckets.has(key) && buckets.size >= MAX_TRACKED) {
        addr = OVERFLOW_ADDR;
        key = `${addr}\n${action}`;
      }
      const bucket = buckets.get(key);
      if (bucket && bucket.minute === minute) {
        bucket.more += 1;
        return false;
      }
      buckets.set(key, { addr, action, minute, more: 0 });
      return true;
    },
  };
}
