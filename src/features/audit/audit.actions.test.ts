import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeAuditAction, hasAuditActionLabel } from './audit.actions';

/** Every action code the server writes: the quoted `area.verb` strings of its non-test sources. */
function actionsWritten(): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.ts$/.test(name) && !/\.test\.ts$/.test(name) && full.includes(`${path.sep}server${path.sep}`)) {
        const text = readFileSync(full, 'utf8');
        for (const m of text.matchAll(/action: '([a-z_]+(?:\.[a-z_]+)+)'/g)) found.add(m[1]!);
        for (const m of text.matchAll(/'([a-z_]+\.list\.view)'/g)) found.add(m[1]!);
      }
    }
  };
  walk(path.join(process.cwd(), 'src'));
  return [...found].sort();
}

describe('audit action labels', () => {
  it('gives every action the server writes a label in words', () => {
    const actions = actionsWritten();
    expect(actions.length).toBeGreaterThan(40);
    expect(actions.filter((a) => !hasAuditActionLabel(a))).toEqual([]);
  });

  it('reads an action without a label as its code made readable', () => {
    expect(describeAuditAction('patient.create')).toBe('Added a patient');
    expect(describeAuditAction('provider.deactivate_now')).toBe('Provider deactivate now');
  });
});
