import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema, idParamsSchema } from '@/shared/api';
import { practiceHoursSchema } from '@/features/settings/practice.schema';
import { getPracticeHours } from '@/features/settings/server/settings.queries';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import {
  appointmentDayQuerySchema,
  appointmentPageSchema,
  appointmentPatchSchema,
  appointmentSchema,
  callListExportSchema,
  freeSlotsQuerySchema,
  freeSlotsSchema,
  callListRowSchema,
  newAppointmentSchema,
  uncoveredAppointmentsSchema,
} from '../appointments.schema';
import { nextDayEligibilitySchema } from '@/features/coverage/coverage.eligibility.schema';
import { checkNextWorkingDay, uncoveredNextWorkingDay } from './appointments.eligibility.queries';
import {
  createAppointment,
  exportCallList,
  freeSlotsOn,
  listAppointmentsOn,
  updateAppointment,
} from './appointments.queries';

const errors = {
  400: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
  422: errorEnvelopeSchema,
};

export function appointmentsRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.get(
      '/api/appointments',
      {
        config: { permission: 'appointments:read', cacheable: true },
        schema: {
          tags: ['appointments'],
          description:
            "One page of a day's appointments (default: today on the server's clock), by time then id; " +
            "nextCursor asks for the next page, total (the day's count) comes with a first page.",
          querystring: appointmentDayQuerySchema,
          response: { 200: appointmentPageSchema, ...errors },
        },
      },
      (request) => listAppointmentsOn(deps.db, requestContext(request, deps), request.query),
    );
    api.get(
      '/api/appointments/practice-hours',
      {
        config: { permission: 'appointments:read' },
        schema: {
          tags: ['appointments'],
          description: 'The hours and days bookings must fit in, so the booking form offers only valid slots.',
          response: { 200: practiceHoursSchema },
        },
      },
      () => getPracticeHours(deps.db),
    );
    api.get(
      '/api/appointments/free-slots',
      {
        config: { permission: 'appointments:read' },
        schema: {
          tags: ['appointments'],
          description:
            "The start times free on a day for a provider (with the practice's buffer between visits) and, " +
            'when given, a patient; or for moving an appointment (appointmentId), its own time not counted.',
          querystring: freeSlotsQuerySchema,
          response: { 200: freeSlotsSchema, ...errors },
        },
      },
      (request) => freeSlotsOn(deps.db, requestContext(request, deps), request.query),
    );
    api.post(
      '/api/appointments/call-list-export',
      {
        config: { permission: 'appointments:read' },
        schema: {
          tags: ['appointments'],
          description: "The day's call list for the CSV the browser builds; the export is audited.",
          body: callListExportSchema,
          response: { 200: z.array(callListRowSchema), ...errors },
        },
      },
      (request) => exportCallList(deps.db, requestContext(request, deps), request.body.date),
    );
    api.post(
      '/api/appointments',
      {
        config: { permission: 'appointments:write' },
        schema: { tags: ['appointments'], body: newAppointmentSchema, response: { 201: appointmentSchema, ...errors } },
      },
      async (request, reply) => {
        const created = await createAppointment(deps.db, requestContext(request, deps), request.body);
        return reply.code(201).send(created);
      },
    );
    api.get(
      '/api/appointments/eligibility/next-day',
      {
        config: { permission: 'appointments:read' },
        schema: {
          tags: ['appointments'],
          description:
            "The next working day's booked visits whose primary policy is not known to be in force: inactive, " +
            'rejected, awaiting an answer, never checked, or no policy. The front desk’s notice.',
          response: { 200: uncoveredAppointmentsSchema, 400: errorEnvelopeSchema },
        },
      },
      (request) => uncoveredNextWorkingDay(deps.db, requestContext(request, deps)),
    );
    api.post(
      '/api/appointments/eligibility/next-day',
      {
        config: { permission: 'eligibility:check' },
        schema: {
          tags: ['appointments'],
          description:
            "Runs the evening eligibility batch now: one X12 270 asking about every policy of the next working day's " +
            'booked visits not yet asked about for that day. Audited.',
          response: { 200: nextDayEligibilitySchema, ...errors },
        },
      },
      (request) => checkNextWorkingDay(deps.db, requestContext(request, deps)),
    );
    api.patch(
      '/api/appointments/:id',
      {
        config: { permission: 'appointments:write' },
        schema: {
          tags: ['appointments'],
          params: idParamsSchema,
          body: appointmentPatchSchema,
          response: { 200: appointmentSchema, ...errors },
        },
      },
      (request) => updateAppointment(deps.db, requestContext(request, deps), request.params.id, request.body),
    );
  };
}
