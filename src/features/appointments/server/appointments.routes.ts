import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema, idParamsSchema } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import {
  appointmentDayQuerySchema,
  appointmentPatchSchema,
  appointmentSchema,
  newAppointmentSchema,
} from '../appointments.schema';
import { createAppointment, listAppointmentsOn, updateAppointment } from './appointments.queries';

const errors = { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema };

export function appointmentsRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.get(
      '/api/appointments',
      {
        config: { permission: 'appointments:read' },
        schema: {
          tags: ['appointments'],
          querystring: appointmentDayQuerySchema,
          response: { 200: z.array(appointmentSchema), ...errors },
        },
      },
      (request) => listAppointmentsOn(deps.db, requestContext(request, deps), request.query.date),
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
