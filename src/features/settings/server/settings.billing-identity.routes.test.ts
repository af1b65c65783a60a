import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ROLES } from '@/shared/access';
import { auditLog } from '@/features/audit/server/audit.table';
import { DEMO_BILLING_IDENTITY } from '@/server/db/seed/demo-coverage';
import { createTestApp, signInAs, type SignedIn, type TestApp } from '@/testing/test-app';
import { practiceSettings } from './settings.table';

const URL = '/api/settings/practice/billing-identity';
const ACTION = 'settings.billing_identity.update';

type Envelope = { error: { code: string; message: string; fields?: { field: string; message: string }[] } };
const fieldsOf = (body: unknown) => (body as Envelope).error.fields ?? [];

/** A valid identity typed the way a person would: dashes in the EIN and ZIP+4, lower case, stray spaces. */
const TYPED = {
  billingName: '  Lakeside Medical Group PC ',
  billingNpi: '1234567893',
  taxId: '12-3456789',
  taxonomyCode: '207q00000x',
  billingAddressLine1: '500 Lake Shore Drive',
  billingCity: 'Chicago',
  billingState: 'il',
  billingZip: '60611-2345',
};
const STORED = {
  billingName: 'Lakeside Medical Group PC',
  billingNpi: '1234567893',
  taxId: '123456789',
  taxonomyCode: '207Q00000X',
  billingAddressLine1: '500 Lake Shore Drive',
  billingCity: 'Chicago',
  billingState: 'IL',
  billingZip: '606112345',
};

let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInAs(t.app, 'admin');
});
afterAll(async () => {
  await t.close();
});

function auditEntries() {
  return t.database.db.select().from(auditLog).where(eq(auditLog.action, ACTION));
}

describe('the practice billing identity', () => {
  it('reads the identity the demo seed entered', async () => {
    const res = await admin.request({ method: 'GET', url: URL });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(DEMO_BILLING_IDENTITY);
  });

  it('refuses each invalid field with that field named, and writes nothing', async () => {
    const cases: [Partial<typeof TYPED>, string, string][] = [
      [{ billingNpi: '1234567890' }, 'billingNpi', 'must be a valid NPI: 10 digits with a correct check digit'],
      [{ billingNpi: '123456789' }, 'billingNpi', 'must be 10 digits'],
      [{ taxId: '07-1234567' }, 'taxId', 'must be a valid EIN: its first 2 digits are not a prefix the IRS assigns'],
      [{ taxonomyCode: '207Q0000X' }, 'taxonomyCode', 'must be a NUCC taxonomy code'],
      [{ billingState: 'XX' }, 'billingState', 'must be the 2-letter code of a US state or territory'],
      [{ billingZip: '1234' }, 'billingZip', 'must be a ZIP code'],
      [{ billingName: '   ' }, 'billingName', 'is required'],
      [{ billingCity: 'x'.repeat(61) }, 'billingCity', 'must be at most 60 characters'],
    ];
    for (const [change, field, message] of cases) {
      const res = await admin.request({ method: 'PUT', url: URL, payload: { ...TYPED, ...change } });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      const body = res.json<Envelope>();
      expect(body.error.code).toBe('VALIDATION_FAILED');
      expect(
        fieldsOf(body).map((f) => f.field),
        JSON.stringify(change),
      ).toEqual([field]);
      expect(fieldsOf(body)[0]?.message).toContain(message);
    }

    const missing = { ...TYPED } as Partial<typeof TYPED>;
    delete missing.taxonomyCode;
    const incomplete = await admin.request({ method: 'PUT', url: URL, payload: missing });
    expect(incomplete.statusCode).toBe(400);
    expect(fieldsOf(incomplete.json())).toEqual([{ field: 'taxonomyCode', message: 'is required' }]);

    const extra = await admin.request({ method: 'PUT', url: URL, payload: { ...TYPED, practiceId: 2 } });
    expect(extra.statusCode).toBe(400);
    expect(extra.json<Envelope>().error.code).toBe('VALIDATION_FAILED');

    expect((await admin.request({ method: 'GET', url: URL })).json()).toEqual(DEMO_BILLING_IDENTITY);
    expect(await auditEntries()).toEqual([]);
  });

  it('saves a valid identity in its stored form, reads it back and audits each change', async () => {
    const saved = await admin.request({ method: 'PUT', url: URL, payload: TYPED });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual(STORED);
    expect((await admin.request({ method: 'GET', url: URL })).json()).toEqual(STORED);

    const entries = await auditEntries();
    expect(entries).toHaveLength(1);
    expect(entries[0]?.actor).toBe('admin@healthcare.demo');
    expect(entries[0]?.resource).toBe('practice/1');
    // The state did not change (IL both times), so the entry leaves it out.
    expect(entries[0]?.detail).toBe(
      [
        'legal name "Riverside Family Practice LLC" -> "Lakeside Medical Group PC"',
        `billing NPI ${DEMO_BILLING_IDENTITY.billingNpi} -> 1234567893`,
        'tax id 371234567 -> 123456789',
        'taxonomy 193200000X -> 207Q00000X',
        'address "1200 Main Street, Suite 200" -> "500 Lake Shore Drive"',
        'city "Springfield" -> "Chicago"',
        'ZIP 627011234 -> 606112345',
      ].join('; '),
    );
  });

  it('refuses every role but admin (403) and a request without a session (401)', async () => {
    for (const role of ROLES.filter((r) => r !== 'admin')) {
      const s = await signInAs(t.app, role);
      const read = await s.request({ method: 'GET', url: URL });
      expect(read.statusCode, `${role} GET`).toBe(403);
      const write = await s.request({ method: 'PUT', url: URL, payload: TYPED });
      expect(write.statusCode, `${role} PUT`).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: URL })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url: URL, payload: TYPED })).statusCode).toBe(401);
    expect(await auditEntries()).toHaveLength(1);
  });

  it('answers nulls before the practice has a settings row, and creates the row on the first save', async () => {
    await t.database.db.delete(practiceSettings).where(eq(practiceSettings.practiceId, 1));
    const empty = await admin.request({ method: 'GET', url: URL });
    expect(empty.statusCode).toBe(200);
    expect(Object.values(empty.json<Record<string, unknown>>())).toEqual(Array(8).fill(null));

    const saved = await admin.request({ method: 'PUT', url: URL, payload: TYPED });
    expect(saved.statusCode).toBe(200);
    expect((await admin.request({ method: 'GET', url: URL })).json()).toEqual(STORED);
    const last = (await auditEntries()).at(-1);
    expect(last?.detail).toContain('billing NPI (none) -> 1234567893');
    expect(last?.detail).toContain('legal name (none) -> "Lakeside Medical Group PC"');
  });
});

describe("the practice's clearinghouse (docs/x12-837.md)", () => {
  const CLEARINGHOUSE = '/api/settings/practice/clearinghouse';

  it('is set by the admin, checked, audited, and refused to every other role', async () => {
    const saved = await admin.request({
      method: 'PUT',
      url: CLEARINGHOUSE,
      payload: { ediReceiverName: ' Lake Clearing ', ediReceiverId: 'LAKECH01', ediSubmitterId: '', ediUsage: 'P' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const stored = { ediReceiverName: 'Lake Clearing', ediReceiverId: 'LAKECH01', ediSubmitterId: null, ediUsage: 'P' };
    expect(saved.json()).toEqual(stored);
    expect((await admin.request({ method: 'GET', url: CLEARINGHOUSE })).json()).toEqual(stored);
    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'settings.clearinghouse.update'));
    expect(entry?.detail).toContain('clearinghouse id');
    expect(entry?.detail).toContain('usage T -> P');

    const bad = await admin.request({
      method: 'PUT',
      url: CLEARINGHOUSE,
      payload: { ediReceiverName: 'X', ediReceiverId: 'LAKE CH*', ediSubmitterId: 'A', ediUsage: 'Q' },
    });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad.json()).map((f) => f.field)).toEqual(['ediReceiverId', 'ediSubmitterId', 'ediUsage']);

    const biller = await signInAs(t.app, 'billing_admin');
    expect((await biller.request({ method: 'GET', url: CLEARINGHOUSE })).statusCode).toBe(403);
  });
});
