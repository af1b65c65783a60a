import { describe, expect, it } from 'vitest';
import { startOnFreePort } from './free-port';

const taken = (port: number) => new Error(`listen EADDRINUSE: address already in use 127.0.0.1:${port}`);

describe('startOnFreePort', () => {
  it('starts again on another port only when its own port was taken', async () => {
    const tried: number[] = [];
    const retried: number[] = [];
    const started = await startOnFreePort(
      async (port) => {
        tried.push(port);
        if (tried.length === 1) throw taken(port);
        return `on ${port}`;
      },
      { onRetry: (port) => retried.push(port) },
    );
    expect(tried).toHaveLength(2);
    expect(retried).toEqual([tried[0]]);
    expect(started).toBe(`on ${tried[1]}`);
  });

  it('throws any other failure at once, and a taken port after the last attempt', async () => {
    let calls = 0;
    await expect(
      startOnFreePort(async () => {
        calls += 1;
        throw new Error('the server exited (1)');
      }),
    ).rejects.toThrow('the server exited (1)');
    expect(calls).toBe(1);
    // Another port's refusal is not this server's port being taken.
    await expect(startOnFreePort(async (port) => Promise.reject(taken(port + 1)))).rejects.toThrow('EADDRINUSE');
    calls = 0;
    await expect(
      startOnFreePort(
        async (port) => {
          calls += 1;
          throw taken(port);
        },
        { attempts: 2 },
      ),
    ).rejects.toThrow('EADDRINUSE');
    expect(calls).toBe(2);
  });
});
