import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi, pending } from '@/testing/fake-api';
import { renderWithApp } from '@/testing/ui-render';
import type { MailboxFile, MailboxFilePage, MailboxSettings } from '../clearinghouse.schema';
import { ClearinghouseTab } from './ClearinghouseTab';

const FINGERPRINT = `SHA256:${'A'.repeat(43)}`;

const saved: MailboxSettings = {
  enabled: true,
  host: 'sftp.example-clearinghouse.com',
  port: 22,
  username: 'clinic01',
  auth: 'password',
  hasSecret: true,
  hostKeySha256: FINGERPRINT,
  outboundDir: '/outbound',
  inboundDir: '/inbound',
  pollMinutes: 15,
  eveningTime: '19:00',
  maxFailures: 5,
  sendFrom: '2026-11-20T15:00:00.000Z',
  lastSuccessAt: '2026-11-22T14:45:00.000Z',
  lastFailureAt: null,
  lastError: null,
  consecutiveFailures: 0,
  updatedAt: '2026-11-20T15:00:00.000Z',
};

const refused: MailboxFile = {
  id: 2,
  direction: 'in',
  remoteName: 'claims.x12',
  kind: 'unknown',
  bytes: 1_200,
  sha256: 'a'.repeat(64),
  status: 'refused',
  detail: 'refused: it holds a transaction set the mailbox does not read: 837 (005010X222A1)',
  sourceKind: null,
  sourceId: null,
  attempts: 1,
  createdAt: '2026-11-22T14:45:00.000Z',
  updatedAt: '2026-11-22T14:45:00.000Z',
};
const sent: MailboxFile = {
  ...refused,
  id: 1,
  direction: 'out',
  remoteName: '837P_000000101_202611220845.x12',
  kind: '837P',
  status: 'sent',
  detail: 'put in the outbound folder (1,200 bytes)',
  sourceKind: 'claim_batch',
  sourceId: 7,
};
const page = (items: MailboxFile[], nextCursor: string | null = null): MailboxFilePage => ({
  items,
  nextCursor,
  total: items.length,
});

describe('ClearinghouseTab', () => {
  it('shows the settings without the secret and the log, newest first, with its filters', async () => {
    const api = fakeApi({
      'GET /api/clearinghouse/mailbox': saved,
      'GET /api/clearinghouse/files': (r) =>
        r.query.get('direction') === 'out' ? page([sent]) : page([refused, sent]),
    });
    const user = userEvent.setup();
    renderWithApp(<ClearinghouseTab />, { route: '/settings' });
    expect(await screen.findByLabelText('Host')).toHaveProperty('value', 'sftp.example-clearinghouse.com');
    expect(screen.getByLabelText('Password')).toHaveProperty('value', '');
    expect(screen.getByText(/A password is stored \(encrypted\)\. Leave empty to keep it\./)).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Mailbox log' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[2]?.textContent)).toEqual([
      'claims.x12',
      '837P_000000101_202611220845.x12',
    ]);
    expect(within(rows[0]!).getByText(/does not read: 837/)).toBeTruthy();
    expect(within(rows[0]!).getByText('Refused')).toBeTruthy();

    await user.click(screen.getByRole('combobox', { name: 'Direction' }));
    await user.click(await screen.findByRole('option', { name: 'Sent to the clearinghouse' }));
    await screen.findByText('1 file in the log');
    expect(api.sent('GET /api/clearinghouse/files').at(-1)?.query.get('direction')).toBe('out');
  });

  it("saves the settings, keeping the stored secret when the field is left empty, and shows the server's refusal", async () => {
    let attempt = 0;
    const api = fakeApi({
      'GET /api/clearinghouse/mailbox': saved,
      'GET /api/clearinghouse/files': page([]),
      'PUT /api/clearinghouse/mailbox': (r) =>
        ++attempt === 1
          ? apiError(400, 'VALIDATION_FAILED', 'host: must be a host name or an IP address', {
              fields: [{ field: 'host', message: 'must be a host name or an IP address' }],
            })
          : { ...saved, ...(r.body as object), hasSecret: true, updatedAt: '2026-11-22T15:00:00.000Z' },
    });
    const user = userEvent.setup();
    renderWithApp(<ClearinghouseTab />, { route: '/settings' });
    expect(await screen.findByText('No files have been sent or received yet.')).toBeTruthy();
    const poll = screen.getByLabelText('Check every (minutes)');
    await user.clear(poll);
    await user.type(poll, '3');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Check every (minutes) must be between 5 and 1440 minutes')).toBeTruthy();
    expect(api.sent('PUT /api/clearinghouse/mailbox')).toEqual([]);

    await user.clear(poll);
    await user.type(poll, '30');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Host must be a host name or an IP address')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Mailbox settings saved')).toBeTruthy();
    expect(api.sent('PUT /api/clearinghouse/mailbox').at(-1)?.body).toMatchObject({ pollMinutes: 30, secret: '' });
  });

  it('tests the connection and sends and fetches now, saying what happened', async () => {
    fakeApi({
      'GET /api/clearinghouse/mailbox': saved,
      'GET /api/clearinghouse/files': page([]),
      'POST /api/clearinghouse/mailbox/test': {
        ok: false,
        message: "The server's host key is not the pinned one: not signed in: …",
        hostKeySha256: null,
        inboundFiles: null,
      },
      'POST /api/clearinghouse/mailbox/run': {
        ok: true,
        message: '1 file sent, 2 files posted',
        sent: 1,
        posted: 2,
        refused: 0,
        failed: 0,
        skipped: 0,
      },
    });
    const user = userEvent.setup();
    renderWithApp(<ClearinghouseTab />, { route: '/settings' });
    await user.click(await screen.findByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText(/host key is not the pinned one/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send and fetch now' }));
    expect(await screen.findByText('1 file sent, 2 files posted')).toBeTruthy();
  });

  it('says so when the log cannot be loaded, and while it loads', async () => {
    fakeApi({
      'GET /api/clearinghouse/mailbox': pending,
      'GET /api/clearinghouse/files': apiError(500, 'INTERNAL', 'Something went wrong.'),
    });
    renderWithApp(<ClearinghouseTab />, { route: '/settings' });
    expect(screen.getByText('Loading the mailbox settings…')).toBeTruthy();
    expect(await screen.findByText(/The mailbox log could not be loaded\./)).toBeTruthy();
  });
});
