import { describe, expect, it, vi } from 'vitest';
import { PrefetchedLines } from './copy-rows';

async function collect(lines: PrefetchedLines): Promise<string> {
  let text = '';
  for await (const chunk of lines) text += chunk;
  return text;
}

describe('PrefetchedLines', () => {
  it('gives every line, in order, whether read while it is made or after', async () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => `${i}\tline ${i}\n`);
    expect(await collect(new PrefetchedLines(lines))).toBe(lines.join(''));
    const finishedFirst = new PrefetchedLines(lines);
    await finishedFirst.done;
    expect(await collect(finishedFirst)).toBe(lines.join(''));
  });

  it('makes the lines in slices: timers and I/O run while a long generator is still going', async () => {
    let made = 0;
    function* slow(): Generator<string> {
      for (let i = 0; i < 400; i += 1) {
        const until = Date.now() + 1;
        while (Date.now() < until) {
          // about a millisecond of work per line
        }
        made += 1;
        yield `${i}\n`;
      }
    }
    const lines = new PrefetchedLines(slow(), 5);
    // vi.waitFor checks on a timer: the check that sees the first lines made is a timer that ran between
    // slices, long before the ~400 ms of generation ended.
    await vi.waitFor(() => expect(made).toBeGreaterThan(0), { interval: 1 });
    expect(made).toBeLessThan(400);
    await lines.done;
    expect(made).toBe(400);
  });

  it('fails the reader when the generator throws (the COPY, and its transaction, fail with it)', async () => {
    function* broken(): Generator<string> {
      yield 'first\n';
      throw new Error('empty reference data');
    }
    const lines = new PrefetchedLines(broken());
    await lines.done;
    await expect(collect(lines)).rejects.toThrow('empty reference data');
  });
});
