import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { sharedBuffersMb, signalUnlessGone } from './client';

describe('signalUnlessGone', () => {
  it('treats a process that exited before the signal as stopped, where process.kill throws', async () => {
    // A killed postmaster can be reaped between the liveness check and the signal that stops it.
    const child = spawn(process.execPath, ['-e', '']);
    await once(child, 'exit');
    const pid = child.pid ?? 0;
    expect(() => process.kill(pid, 'SIGINT')).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    expect(() => signalUnlessGone(pid, 'SIGINT')).not.toThrow();
  });

  it('passes on any other failure', () => {
    expect(() => signalUnlessGone(process.pid, 'SIGNOTHING' as NodeJS.Signals)).toThrow(/SIGNOTHING/);
  });
});

describe('sharedBuffersMb', () => {
  const GB = 2 ** 30;
  it('gives PostgreSQL a quarter of the machine, at most 1 GB and never under its 128 MB default', () => {
    expect(sharedBuffersMb(2 * GB)).toBe(512);
    expect(sharedBuffersMb(24 * GB)).toBe(1024);
    expect(sharedBuffersMb(GB / 4)).toBe(128);
  });
});
