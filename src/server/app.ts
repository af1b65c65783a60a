import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyBaseLogger } from 'fastify';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import { analyticsRoutes } from '@/features/analytics/server/analytics.routes';
import { appointmentsRoutes } from '@/features/appointments/server/appointments.routes';
import { auditRoutes } from '@/features/audit/server/audit.routes';
import { authRoutes } from '@/features/auth/server/auth.routes';
import { authorizationsRoutes } from '@/features/authorizations/server/authorizations.routes';
import { billingRoutes } from '@/features/billing/server/billing.routes';
import { submissionRoutes } from '@/features/submission/server/submission.routes';
import { claimStatusRoutes } from '@/features/submission/server/submission.claim-status.routes';
import { coordinationRoutes } from '@/features/coordination/server/coordination.routes';
import { claimsRoutes } from '@/features/claims/server/claims.routes';
import { rescrubHeldClaimsOf } from '@/features/submission/server/submission.scrub.queries';
import { coverageRoutes } from '@/features/coverage/server/coverage.routes';
import { coverageEligibilityRoutes } from '@/features/coverage/server/coverage.eligibility.routes';
import { practiceEligibilitySender } from '@/features/appointments/server/appointments.eligibility.queries';
import { complianceRoutes } from '@/features/compliance/server/compliance.routes';
import { dashboardRoutes } from '@/features/dashboard/server/dashboard.routes';
import { patientsRoutes } from '@/features/patients/server/patients.routes';
import { payersRoutes } from '@/features/payers/server/payers.routes';
import { portalRoutes } from '@/features/portal/server/portal.routes';
import { providersRoutes } from '@/features/providers/server/providers.routes';
import { remittancesRoutes } from '@/features/remittances/server/remittances.routes';
import { clearinghouseRoutes } from '@/features/clearinghouse/server/clearinghouse.routes';
import { registrationRoutes } from '@/features/users/server/users.registration.routes';
import { rtmRoutes } from '@/features/rtm/server/rtm.routes';
import { searchRoutes } from '@/features/search/server/search.routes';
import { selftestRoutes } from '@/features/selftest/server/selftest.routes';
import { settingsRoutes } from '@/features/settings/server/settings.routes';
import { systemRoutes } from '@/features/system/server/system.routes';
import { usersRoutes } from '@/features/users/server/users.routes';
import { worklistRoutes } from '@/features/worklist/server/worklist.routes';
import { workqueueRoutes } from '@/features/workqueue/server/workqueue.routes';
import type { AppDeps } from './context';
import { registerAccessControl } from './plugins/access';
import { registerHostAllowList } from './plugins/allowed-hosts';
import { registerAnswerCache } from './plugins/answer-cache';
import { registerAnswerEncoding } from './plugins/answer-encoding';
import { answerSerializerCompiler } from './plugins/answer-serializer';
import { frameworkErrors, registerErrorHandling, sendError } from './plugins/errors';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerPracticeClock } from '@/shared/practice-zone';
import { applyPracticeTimeZone } from '@/features/settings/server/practice-zone.sync';

export async function buildApp(deps: AppDeps, logger?: FastifyBaseLogger): Promise<FastifyInstance> {
  registerPracticeClock(deps.clock);
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    // Behind HTTPS the app sits behind a load balancer / reverse proxy on a private network (docs/deploy.md):
    // X-Forwarded-For is believed only from such addresses, so the client address is the right-most one no
    // private proxy vouches for, and an entry a client writes itself further left cannot dodge the per-client
    // sign-in limit. (Fastify refuses a bare hop count: it cannot check the immediate peer.)
    trustProxy: deps.config.secureCookies ? 'loopback, linklocal, uniquelocal' : false,
    bodyLimit: 1024 * 1024,
    // A JSON key "__proto__" or "constructor.prototype" is dropped while parsing, so it never reaches a
    // prototype, and the body is then validated like any other: a field holding such an object is refused
    // with a 400 naming the field (refusing the whole body, Fastify's default, named none).
    onProtoPoisoning: 'remove',
    onConstructorPoisoning: 'remove',
    frameworkErrors,
  });
  app.setValidatorCompiler(validatorCompiler);
  // Compiled from each response schema; checked against zod's serializer in every test run.
  app.setSerializerCompiler(answerSerializerCompiler(process.env.NODE_ENV === 'test'));
  registerErrorHandling(app);

  await app.register(cookie);
  // Before the encoding: the cache's onSend hook keeps the JSON text as serialised.
  registerAnswerCache(app, deps);
  // API answers (JSON lists) go compressed when the browser accepts it; the client's files are compressed
  // once at build time and leave already encoded.
  registerAnswerEncoding(app);
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix and Chart.js set inline style attributes; scripts stay strict.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: deps.config.secureCookies ? [] : null,
      },
    },
    hsts: deps.config.secureCookies ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  // First of the checks, after the security headers so a refusal carries them too.
  registerHostAllowList(app, deps.config.allowedHosts);
  await app.register(rateLimit, { global: false });
  registerAccessControl(app, deps);
  await applyPracticeTimeZone(app, deps);

  await app.register(swagger, {
    openapi: { info: { title: 'Healthcare RCM API', version: '0.1.0' } },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  // Every feature's routes, listed explicitly.
  await app.register(systemRoutes(deps));
  await app.register(authRoutes(deps));
  await app.register(settingsRoutes(deps));
  await app.register(searchRoutes(deps));
  await app.register(authorizationsRoutes(deps));
  await app.register(worklistRoutes(deps));
  // A change to what a claim says of a patient (address, sex, coverage) scrubs the patient's held claims again
  // (docs/work-queue.md).
  await app.register(patientsRoutes(deps, rescrubHeldClaimsOf));
  await app.register(providersRoutes(deps));
  await app.register(payersRoutes(deps));
  await app.register(appointmentsRoutes(deps));
  await app.register(portalRoutes(deps));
  await app.register(registrationRoutes(deps));
  await app.register(dashboardRoutes(deps));
  await app.register(billingRoutes(deps));
  await app.register(analyticsRoutes(deps));
  await app.register(coverageRoutes(deps, rescrubHeldClaimsOf));
  // A 270's sender is the practice's billing identity and clearinghouse, read through a later feature.
  await app.register(coverageEligibilityRoutes(deps, practiceEligibilitySender));
  await app.register(claimsRoutes(deps));
  await app.register(coordinationRoutes(deps));
  await app.register(submissionRoutes(deps));
  await app.register(claimStatusRoutes(deps));
  await app.register(remittancesRoutes(deps));
  await app.register(clearinghouseRoutes(deps));
  await app.register(workqueueRoutes(deps));
  await app.register(auditRoutes(deps));
  await app.register(complianceRoutes(deps));
  await app.register(selftestRoutes(deps));
  await app.register(rtmRoutes(deps));
  await app.register(usersRoutes(deps));

  await registerClient(app, deps.config.clientDir);
  return app;
}

/**
 * A client file's path as the router decoded it, or null for one that could climb out of the client folder
 * (`..` in any encoding, a backslash, a NUL, or a `%` left by double encoding, which the file sender would
 * decode again): such a path is answered 404 like any missing file, before anything looks at the disk.
 */
export function clientFileOf(file: string): string | null {
  if (file.includes('\\') || file.includes('\u0000') || file.includes('%')) return null;
  const segments = file.split('/');
  if (segments.some((s) => s === '..' || s === '.')) return null;
  return file;
}

/** Serves the built client; every other non-API path gets index.html so the client router decides (and shows its 404). */
async function registerClient(app: FastifyInstance, clientDir: string | undefined) {
  const hasClient = clientDir !== undefined && existsSync(path.join(clientDir, 'index.html'));
  if (hasClient) {
    // The build writes .br and .gz beside each asset (vite.config.ts): sent as the browser accepts them.
    await app.register(fastifyStatic, { root: clientDir, serve: false, preCompressed: true });
    app.get('/*', { config: { permission: 'public' }, schema: { hide: true } }, (request, reply) => {
      // The router has decoded the path: /%61pi/… is an API path too.
      const file = clientFileOf((request.params as { '*': string })['*']);
      if (file === null || file.startsWith('api/')) return notFound(request, reply);
      // A missing client file is a 404: index.html in its place would be read as a script or style.
      if (file.startsWith('assets/')) {
        if (!existsSync(path.join(clientDir, file))) return notFound(request, reply);
        // cacheControl: false keeps these headers (@fastify/static would otherwise replace them with max-age=0).
        return reply
          .header('cache-control', 'public, max-age=31536000, immutable')
          .sendFile(file, { cacheControl: false });
      }
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html')
        .sendFile('index.html', { cacheControl: false });
    });
  }
  app.setNotFoundHandler(notFound);
}

function notFound(request: FastifyRequest, reply: FastifyReply) {
  return sendError(reply, 404, 'NOT_FOUND', `No such endpoint: ${request.method} ${request.url.split('?')[0] ?? ''}`);
}
