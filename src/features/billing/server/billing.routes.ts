import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema, idSchema } from '@/shared/api';
import { periodQuerySchema } from '@/features/analytics/analytics.schema';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import { serverTiming } from '@/server/server-timing';
import {
  billingPatientQuerySchema,
  billingPatientSchema,
  patientPaymentReceiptSchema,
  patientPaymentRequestSchema,
  payerPerformanceSchema,
  statementSchema,
  guestPaymentReceiptSchema,
  guestPaymentRequestSchema,
  guestStatementRequestSchema,
  guestStatementSchema,
} from '../billing.schema';
import {
  getOwnStatement,
  getPayerPerformance,
  getStaffStatement,
  lookupGuestStatement,
  payAsGuest,
  payOwnBalance,
  searchStatementPatients,
} from './billing.queries';

const errors = { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema };
/** A guest lookup may also be refused by the per-account lock on failed lookups (429). */
const guestErrors = { ...errors, 429: errorEnvelopeSchema };
const statementParamsSchema = z.object({ patientId: idSchema });

export function billingRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    // An account number and a date of birth are all a guest needs: rate-limited like sign-in, so they
    // cannot be guessed at speed.
    const rateLimit = { max: deps.config.loginRateLimitPerMinute, timeWindow: '1 minute' };

    api.post(
      '/api/guest/statement',
      {
        config: { permission: 'guest:pay', rateLimit },
        schema: {
          tags: ['billing'],
          body: guestStatementRequestSchema,
          response: { 200: guestStatementSchema, ...guestErrors },
        },
      },
      (request) => lookupGuestStatement(deps.db, requestContext(request, deps), request.body),
    );
    api.post(
      '/api/guest/payments',
      {
        config: { permission: 'guest:pay', rateLimit },
        schema: {
          tags: ['billing'],
          body: guestPaymentRequestSchema,
          response: { 201: guestPaymentReceiptSchema, ...guestErrors },
        },
      },
      async (request, reply) => {
        const receipt = await payAsGuest(deps.db, requestContext(request, deps), request.body);
        return reply.code(201).send(receipt);
      },
    );

    // Staff: the Financial Summary & Billing screen (roles that open /billing).
    api.get(
      '/api/billing/payer-performance',
      {
        ...serverTiming,
        config: { permission: 'billing:read' },
        schema: {
          tags: ['billing'],
          description:
            'The 5 payers with the most collections in the period, each with its denial rate, and the overall denial rate of this period against the one before.',
          querystring: periodQuerySchema,
          response: { 200: payerPerformanceSchema, ...errors },
        },
      },
      (request) => getPayerPerformance(deps.db, requestContext(request, deps), request.query.periodDays),
    );
    api.get(
      '/api/billing/patients',
      {
        config: { permission: 'billing:read' },
        schema: {
          tags: ['billing'],
          description:
            'Patients whose name contains the text (name, date of birth and MRN masked for the role; at most 20), ' +
            'for the statement generator. Audited as a read.',
          querystring: billingPatientQuerySchema,
          response: { 200: z.array(billingPatientSchema), ...errors },
        },
      },
      (request) => searchStatementPatients(deps.db, requestContext(request, deps), request.query.search),
    );
    api.get(
      '/api/billing/statements/:patientId',
      {
        config: { permission: 'billing:read' },
        schema: {
          tags: ['billing'],
          description:
            "A patient's statement: totals over every claim, the 3 most recent claims and every other with an amount due (the rest summed), and the patient's payments. Audited as a PHI read.",
          params: statementParamsSchema,
          response: { 200: statementSchema, ...errors },
        },
      },
      (request) => getStaffStatement(deps.db, requestContext(request, deps), request.params.patientId, 'view'),
    );
    api.post(
      '/api/billing/statements/:patientId/export',
      {
        config: { permission: 'billing:read' },
        schema: {
          tags: ['billing'],
          description:
            "The full statement (every claim) for 'Export Statement'; the CSV is made in the browser. Audited as an export.",
          params: statementParamsSchema,
          response: { 200: statementSchema, ...errors },
        },
      },
      (request) => getStaffStatement(deps.db, requestContext(request, deps), request.params.patientId, 'export'),
    );

    // The patient's My Billing. No route reads an id: the patient is the session's (docs/access.md).
    api.get(
      '/api/portal/statement',
      {
        config: { permission: 'portal:read' },
        schema: {
          tags: ['portal', 'billing'],
          description:
            "The signed-in patient's own statement with all their claims. Audited as a read of their record.",
          response: { 200: statementSchema, ...errors },
        },
      },
      (request) => getOwnStatement(deps.db, requestContext(request, deps), 'view'),
    );
    api.post(
      '/api/portal/statement/export',
      {
        config: { permission: 'portal:read' },
        schema: {
          tags: ['portal', 'billing'],
          description:
            "The signed-in patient's statement for 'Download Statement' (CSV made in the browser). Audited as an export.",
          response: { 200: statementSchema, ...errors },
        },
      },
      (request) => getOwnStatement(deps.db, requestContext(request, deps), 'export'),
    );
    api.post(
      '/api/portal/payments',
      {
        config: { permission: 'portal:pay' },
        schema: {
          tags: ['portal', 'billing'],
          description:
            "Pays part or all of the signed-in patient's balance, oldest service date first; answers the receipt number and the new statement.",
          body: patientPaymentRequestSchema,
          response: { 201: patientPaymentReceiptSchema, ...errors },
        },
      },
      async (request, reply) => {
        const statement = await payOwnBalance(deps.db, requestContext(request, deps), request.body.amountCents);
        return reply.code(201).send(statement);
      },
    );
  };
}
