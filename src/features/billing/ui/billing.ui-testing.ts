import { vi } from 'vitest';
import type { Statement } from '../billing.schema';

export interface Call {
  method: string;
  url: string;
  body: unknown;
}

export type Handler = (call: Call) => { status?: number; body: unknown } | 'never';

/** A fake API for the billing screens: answers by "METHOD path" (query string ignored) and records calls. */
export function mockApi(handlers: Record<string, Handler>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const text = typeof init?.body === 'string' ? init.body : undefined;
      const call: Call = { method, url: input, body: text === undefined ? undefined : (JSON.parse(text) as unknown) };
      calls.push(call);
      const handler = handlers[`${method} ${input.split('?')[0]}`];
      const answer = handler ? handler(call) : { status: 404, body: { error: { code: 'NOT_FOUND', message: 'none' } } };
      if (answer === 'never') return new Promise<Response>(() => {});
      return Promise.resolve(
        new Response(JSON.stringify(answer.body), {
          status: answer.status ?? 200,
          headers: { 'Content-Type': 'application/json' },
        }),
      );
    }),
  );
  return calls;
}

export const STATEMENT: Statement = {
  patientId: 1,
  patientName: 'Maria Lopez',
  statementDate: '2026-11-22',
  claimCount: 3,
  totalBilledCents: 51_400,
  payerPaidCents: 24_000,
  patientPaidCents: 2_000,
  totalPaidCents: 26_000,
  amountDueCents: 4_580,
  claims: [
    {
      id: 30,
      accountNumber: 'ACC-2026-100030',
      serviceDate: '2026-11-20',
      procedure: '99213',
      provider: 'Dr. Ana Gutierrez',
      status: 'Paid',
      billedCents: 14_900,
      paidCents: 11_920,
      amountDueCents: 2_980,
    },
    {
      id: 20,
      accountNumber: 'ACC-2026-100020',
      serviceDate: '2026-10-05',
      procedure: '80053',
      provider: 'Dr. Samuel Okoye',
      status: 'Paid',
      billedCents: 11_600,
      paidCents: 10_000,
      amountDueCents: 1_600,
    },
    {
      id: 10,
      accountNumber: 'ACC-2026-100010',
      serviceDate: '2026-09-07',
      procedure: '99396',
      provider: 'Dr. Emily Carter',
      status: 'Denied',
      billedCents: 24_900,
      paidCents: 4_080,
      amountDueCents: 0,
    },
  ],
};
