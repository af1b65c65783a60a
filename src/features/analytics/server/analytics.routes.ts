import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema } from '@/shared/api';
import { periodEndingToday } from '@/shared/period';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import { serverTiming } from '@/server/server-timing';
import {
  arAgingSchema,
  denialsByReasonSchema,
  kpiExportAuditSchema,
  kpiResultSchema,
  missedChargeVisitsSchema,
  periodQuerySchema,
  providerAnalyticsSchema,
} from '../analytics.schema';
import {
  computeArAging,
  computeDenialsByReason,
  computeKpis,
  computeProviderAnalytics,
  getMissedChargeVisits,
  recordKpiExport,
} from './analytics.queries';

/** The revenue-cycle analytics behind /kpis, /analytics, /claims and /billing (aggregates only, no PHI). */
export function analyticsRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const access = { ...serverTiming, config: { permission: 'analytics:read' as const } };
    // The figures change only with the data and the day: repeated reads are served from memory (docs/caching.md).
    const cachedRead = { ...serverTiming, config: { permission: 'analytics:read' as const, cacheable: true } };

    api.get(
      '/api/claims/analytics/kpis',
      {
        ...cachedRead,
        schema: {
          tags: ['analytics'],
          description: 'The ten KPIs and the claim totals over the last periodDays days (7, 30, 60 or 90; default 30).',
          querystring: periodQuerySchema,
          response: { 200: kpiResultSchema, 400: errorEnvelopeSchema },
        },
      },
      (request) => computeKpis(deps.db, periodEndingToday(deps.clock(), request.query.periodDays)),
    );

    api.get(
      '/api/claims/analytics/kpis/charge-capture/missed',
      {
        ...serverTiming,
        config: { permission: 'analytics:drilldown' },
        schema: {
          tags: ['analytics'],
          description:
            "Charge Capture Accuracy's drill-down: the completed visits of the period that no claim bills, newest first (at most 200). Audited as a PHI read.",
          querystring: periodQuerySchema,
          response: { 200: missedChargeVisitsSchema, 400: errorEnvelopeSchema },
        },
      },
      (request) => getMissedChargeVisits(deps.db, requestContext(request, deps), request.query.periodDays),
    );

    api.get(
      '/api/claims/analytics/ar-aging',
      {
        ...cachedRead,
        schema: {
          tags: ['analytics'],
          description: 'Outstanding A/R as of today by days since the service date (0-30, 31-60, 61-90, 91-120, 120+).',
          response: { 200: arAgingSchema },
        },
      },
      () => computeArAging(deps.db, deps.clock()),
    );

    api.get(
      '/api/claims/analytics/provider',
      {
        ...cachedRead,
        schema: {
          tags: ['analytics'],
          description:
            'Per provider: claims, collections, collection rate and days in A/R over the period; by collections.',
          querystring: periodQuerySchema,
          response: { 200: providerAnalyticsSchema, 400: errorEnvelopeSchema },
        },
      },
      (request) => computeProviderAnalytics(deps.db, periodEndingToday(deps.clock(), request.query.periodDays)),
    );

    api.get(
      '/api/claims/analytics/denials-by-reason',
      {
        ...cachedRead,
        schema: {
          tags: ['analytics'],
          description: 'Claims denied on first adjudication in the period, by CARC reason (no CO-45 or PR-*).',
          querystring: periodQuerySchema,
          response: { 200: denialsByReasonSchema, 400: errorEnvelopeSchema },
        },
      },
      (request) => computeDenialsByReason(deps.db, periodEndingToday(deps.clock(), request.query.periodDays)),
    );

    api.post(
      '/api/claims/analytics/kpis/exports',
      {
        ...access,
        schema: {
          tags: ['analytics'],
          description: 'Records that the browser exported the KPIs as CSV (the export is audited).',
          body: kpiExportAuditSchema,
          response: { 204: z.null(), 400: errorEnvelopeSchema },
        },
      },
      async (request, reply) => {
        await recordKpiExport(deps.db, requestContext(request, deps), request.body);
        return reply.code(204).send(null);
      },
    );
  };
}
