import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema } from '@/shared/api';
import type { AppDeps } from '@/server/context';
import { requestContext } from '@/server/request-context';
import {
  billingIdentitySchema,
  billingIdentityUpdateSchema,
  clearinghouseSchema,
  clearinghouseUpdateSchema,
  practiceHoursSchema,
  practiceHoursUpdateSchema,
} from '../practice.schema';
import { practiceTimeZoneSchema, practiceTimeZoneUpdateSchema } from '../practice-zone.schema';
import {
  integrationParamsSchema,
  integrationsSchema,
  integrationUpdateSchema,
  notificationSettingsSchema,
  notificationsResponseSchema,
  userSettingsPatchSchema,
  userSettingsSchema,
} from '../settings.schema';
import {
  getBillingIdentity,
  getClearinghouse,
  getIntegrations,
  getNotifications,
  getPracticeHours,
  getUserSettings,
  setIntegration,
  updateBillingIdentity,
  updateClearinghouse,
  updateNotifications,
  updatePracticeHours,
  getPracticeTimeZone,
  updatePracticeTimeZone,
  updateUserSettings,
} from './settings.queries';

export function settingsRoutes(deps: AppDeps) {
  return async function plugin(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const errors = { 400: errorEnvelopeSchema, 403: errorEnvelopeSchema };
    api.get(
      '/api/settings',
      { config: { permission: 'settings:own' }, schema: { tags: ['settings'], response: { 200: userSettingsSchema } } },
      (request) => getUserSettings(deps.db, requestContext(request, deps)),
    );
    api.patch(
      '/api/settings',
      {
        config: { permission: 'settings:own' },
        schema: {
          tags: ['settings'],
          body: userSettingsPatchSchema,
          response: { 200: userSettingsSchema, 400: errorEnvelopeSchema },
        },
      },
      (request) => updateUserSettings(deps.db, requestContext(request, deps), request.body),
    );

    api.get(
      '/api/settings/practice',
      {
        config: { permission: 'settings:practice' },
        schema: { tags: ['settings'], response: { 200: practiceHoursSchema, ...errors } },
      },
      () => getPracticeHours(deps.db),
    );
    api.put(
      '/api/settings/practice',
      {
        config: { permission: 'settings:practice' },
        schema: {
          tags: ['settings'],
          description: 'Appointment duration, buffer, working hours and days of the practice.',
          body: practiceHoursUpdateSchema,
          response: { 200: practiceHoursSchema, ...errors },
        },
      },
      (request) => updatePracticeHours(deps.db, requestContext(request, deps), request.body),
    );

    api.get(
      '/api/settings/practice/time-zone',
      {
        config: { permission: 'settings:practice' },
        schema: { tags: ['settings'], response: { 200: practiceTimeZoneSchema, ...errors } },
      },
      () => getPracticeTimeZone(deps.db, deps.clock()),
    );
    api.put(
      '/api/settings/practice/time-zone',
      {
        config: { permission: 'settings:practice' },
        schema: {
          tags: ['settings'],
          description: "The practice's time zone: every today, due date, age and day boundary is kept in it.",
          body: practiceTimeZoneUpdateSchema,
          response: { 200: practiceTimeZoneSchema, ...errors },
        },
      },
      (request) => updatePracticeTimeZone(deps.db, requestContext(request, deps), request.body),
    );

    api.get(
      '/api/settings/practice/billing-identity',
      {
        config: { permission: 'system:admin' },
        schema: {
          tags: ['settings'],
          description: 'The practice as the billing provider of its claims (X12 837P loop 2010AA); null until entered.',
          response: { 200: billingIdentitySchema, ...errors },
        },
      },
      () => getBillingIdentity(deps.db),
    );
    api.put(
      '/api/settings/practice/billing-identity',
      {
        config: { permission: 'system:admin' },
        schema: {
          tags: ['settings'],
          description:
            "The practice's legal name, billing NPI, EIN, NUCC taxonomy and address, as its claims name the billing provider.",
          body: billingIdentityUpdateSchema,
          response: { 200: billingIdentitySchema, ...errors },
        },
      },
      (request) => updateBillingIdentity(deps.db, requestContext(request, deps), request.body),
    );
    api.get(
      '/api/settings/practice/clearinghouse',
      {
        config: { permission: 'system:admin' },
        schema: {
          tags: ['settings'],
          description: "The clearinghouse the practice's 837P files go to: its name and id, the submitter id, T or P.",
          response: { 200: clearinghouseSchema, ...errors },
        },
      },
      () => getClearinghouse(deps.db),
    );
    api.put(
      '/api/settings/practice/clearinghouse',
      {
        config: { permission: 'system:admin' },
        schema: {
          tags: ['settings'],
          description:
            'Sets the clearinghouse (loop 1000B, ISA08, GS03), the submitter id it assigned (empty: the EIN) and ' +
            'whether files are test (T) or production (P). Audited.',
          body: clearinghouseUpdateSchema,
          response: { 200: clearinghouseSchema, ...errors },
        },
      },
      (request) => updateClearinghouse(deps.db, requestContext(request, deps), request.body),
    );

    api.get(
      '/api/settings/notifications',
      {
        config: { permission: 'settings:own' },
        schema: {
          tags: ['settings'],
          description: "Staff get the practice's notification settings; a patient or guest gets their own.",
          response: { 200: notificationsResponseSchema },
        },
      },
      (request) => getNotifications(deps.db, requestContext(request, deps)),
    );
    api.put(
      '/api/settings/notifications',
      {
        config: { permission: 'settings:own' },
        schema: {
          tags: ['settings'],
          description: "Staff save the practice's notification settings; a patient or guest saves their own.",
          body: notificationSettingsSchema,
          response: { 200: notificationsResponseSchema, ...errors },
        },
      },
      (request) => updateNotifications(deps.db, requestContext(request, deps), request.body),
    );

    api.get(
      '/api/settings/integrations',
      {
        config: { permission: 'settings:practice' },
        schema: { tags: ['settings'], response: { 200: integrationsSchema, ...errors } },
      },
      () => getIntegrations(deps.db),
    );
    api.put(
      '/api/settings/integrations/:key',
      {
        config: { permission: 'settings:practice' },
        schema: {
          tags: ['settings'],
          description: 'Connects or disconnects one integration of the practice.',
          params: integrationParamsSchema,
          body: integrationUpdateSchema,
          response: { 200: integrationsSchema, ...errors },
        },
      },
      (request) => setIntegration(deps.db, requestContext(request, deps), request.params.key, request.body.connected),
    );
  };
}
