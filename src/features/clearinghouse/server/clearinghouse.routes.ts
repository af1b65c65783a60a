import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import {
  mailboxFilePageSchema,
  mailboxFilesQuerySchema,
  mailboxRunResultSchema,
  mailboxSettingsInputSchema,
  mailboxSettingsSchema,
  mailboxTestResultSchema,
} from '../clearinghouse.schema';
import { runMailbox, testMailbox } from './clearinghouse.mailbox';
import { getMailboxSettings, listMailboxFiles, loadMailbox, saveMailboxSettings } from './clearinghouse.queries';

/** The clearinghouse mailbox (docs/clearinghouse.md): its settings, a connection test, a run now and the log. */
export function clearinghouseRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const errors = { 400: errorEnvelopeSchema, 403: errorEnvelopeSchema, 503: errorEnvelopeSchema };
    api.get(
      '/api/clearinghouse/mailbox',
      {
        config: { permission: 'clearinghouse:manage' },
        schema: {
          tags: ['clearinghouse'],
          description: 'The mailbox settings and their state; whether a password or key is stored, never the secret.',
          response: { 200: mailboxSettingsSchema, ...errors },
        },
      },
      () => getMailboxSettings(deps.db),
    );
    api.put(
      '/api/clearinghouse/mailbox',
      {
        config: { permission: 'clearinghouse:manage' },
        schema: {
          tags: ['clearinghouse'],
          description: 'Saves the settings (an empty secret keeps the stored one); audited without the secret.',
          body: mailboxSettingsInputSchema,
          response: { 200: mailboxSettingsSchema, ...errors },
        },
      },
      (request) =>
        saveMailboxSettings(deps.db, requestContext(request, deps), request.body, deps.config.mfaEncryptionKey),
    );
    api.post(
      '/api/clearinghouse/mailbox/test',
      {
        config: { permission: 'clearinghouse:manage' },
        schema: {
          tags: ['clearinghouse'],
          description: 'Connects with the saved settings and lists the inbound folder; answers ok or what failed.',
          response: { 200: mailboxTestResultSchema, ...errors },
        },
      },
      async () => testMailbox(await loadMailbox(deps.db, deps.config.mfaEncryptionKey)),
    );
    api.post(
      '/api/clearinghouse/mailbox/run',
      {
        config: { permission: 'clearinghouse:manage' },
        schema: {
          tags: ['clearinghouse'],
          description: 'Sends the pending files and fetches the inbound ones now; answers what moved.',
          response: { 200: mailboxRunResultSchema, ...errors },
        },
      },
      async (request) => {
        const mailbox = await loadMailbox(deps.db, deps.config.mfaEncryptionKey);
        return runMailbox(deps.db, requestContext(request, deps), mailbox, { key: deps.config.mfaEncryptionKey });
      },
    );
    api.get(
      '/api/clearinghouse/files',
      {
        config: { permission: 'clearinghouse:read' },
        schema: {
          tags: ['clearinghouse'],
          description: 'The files the mailbox sent, posted or refused, newest first (keyset-paged).',
          querystring: mailboxFilesQuerySchema,
          response: { 200: mailboxFilePageSchema, ...errors },
        },
      },
      (request) => listMailboxFiles(deps.db, request.query),
    );
  };
}
