import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorEnvelopeSchema, idParamsSchema } from '@/shared/api';
import type { AfterPatientBillingChange, AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import {
  createPatientConflictSchema,
  newPatientSchema,
  patientListQuerySchema,
  patientBillingDetailsSchema,
  patientBillingDetailsUpdateSchema,
  patientOptionSchema,
  patientPageSchema,
  patientSchema,
} from '../patients.schema';
import { getPatientBillingDetails, updatePatientBillingDetails } from './patients.billing-details.queries';
import { createPatient, getPatientSnapshot, listPatientNames, listPatients } from './patients.queries';

const errors = { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 409: errorEnvelopeSchema };

/** `afterBillingChange`: what a later feature does when the billing details change (server/app.ts). */
export function patientsRoutes(deps: AppDeps, afterBillingChange?: AfterPatientBillingChange) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.get(
      '/api/patients',
      {
        config: { permission: 'patients:read', cacheable: true },
        schema: {
          tags: ['patients'],
          querystring: patientListQuerySchema,
          response: { 200: patientPageSchema, ...errors },
        },
      },
      (request) => listPatients(deps.db, requestContext(request, deps), request.query),
    );
    api.get(
      '/api/patients/names',
      {
        config: { permission: 'patients:read' },
        schema: {
          tags: ['patients'],
          querystring: z.object({
            search: z.string().trim().max(100).default(''),
            limit: z.coerce.number().int().min(1).max(50).default(20),
          }),
          response: { 200: z.array(patientOptionSchema), ...errors },
        },
      },
      (request) => listPatientNames(deps.db, requestContext(request, deps), request.query.search, request.query.limit),
    );
    api.get(
      '/api/patients/:id',
      {
        config: { permission: 'patients:read' },
        schema: { tags: ['patients'], params: idParamsSchema, response: { 200: patientSchema, ...errors } },
      },
      (request) => getPatientSnapshot(deps.db, requestContext(request, deps), request.params.id),
    );
    api.post(
      '/api/patients',
      {
        config: { permission: 'patients:write' },
        schema: {
          tags: ['patients'],
          description:
            'Adds a patient. A likely duplicate (same name and date of birth, or same phone) is refused with 409 ' +
            'LIKELY_DUPLICATE and the matches, unless the request says confirmDuplicate: true.',
          body: newPatientSchema,
          response: { 201: patientSchema, ...errors, 409: createPatientConflictSchema },
        },
      },
      async (request, reply) => {
        const result = await createPatient(deps.db, requestContext(request, deps), request.body);
        if ('conflict' in result) return reply.code(409).send(result.conflict);
        return reply.code(201).send(result.created);
      },
    );
    // A claim's view of the patient: read by those who read insurance, changed by those who register it.
    api.get(
      '/api/patients/:id/billing-details',
      {
        config: { permission: 'coverage:read' },
        schema: {
          tags: ['patients'],
          description:
            "The patient's sex and home address, as a claim to a payer carries them (X12 837P DMG03, N3/N4); " +
            'the street and ZIP are masked for roles that do not register insurance; an audited read.',
          params: idParamsSchema,
          response: { 200: patientBillingDetailsSchema, ...errors },
        },
      },
      (request) => getPatientBillingDetails(deps.db, requestContext(request, deps), request.params.id),
    );
    api.put(
      '/api/patients/:id/billing-details',
      {
        config: { permission: 'coverage:write' },
        schema: {
          tags: ['patients'],
          description:
            "Replaces the patient's sex and home address. The address is all or nothing (street, city, state, " +
            "ZIP); the ZIP is stored as digits; audited. A change scrubs the patient's held claims again.",
          params: idParamsSchema,
          body: patientBillingDetailsUpdateSchema,
          response: { 200: patientBillingDetailsSchema, ...errors },
        },
      },
      (request) =>
        updatePatientBillingDetails(
          deps.db,
          requestContext(request, deps),
          request.params.id,
          request.body,
          afterBillingChange,
        ),
    );
  };
}
