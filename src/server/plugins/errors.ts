import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorEnvelope, FieldError } from '@/shared/api';

/** An error a handler throws on purpose: it becomes the JSON envelope with its status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly extra: { fields?: FieldError[]; retryAfterSeconds?: number } = {},
  ) {
    super(message);
  }
}

/** Every 429 (per client, per account) says the same, so a limit tells nothing about which accounts exist. */
/** A 400 naming one field and the rule it breaks, for checks the schema cannot make (they need the database). */
export function invalidField(field: string, message: string): HttpError {
  return new HttpError(400, 'VALIDATION_FAILED', `${field}: ${message}`, { fields: [{ field, message }] });
}

export const RATE_LIMITED_MESSAGE = 'Too many requests. Please wait and try again.';

export function sendError(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  extra: { fields?: FieldError[]; retryAfterSeconds?: number } = {},
) {
  const body: ErrorEnvelope = { error: { code, message, ...extra } };
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: (string | number)[]; message?: string } };
}

function fieldErrorsOf(issues: ValidationIssue[], context: string | undefined): FieldError[] {
  return issues.map((issue) => {
    const path = issue.params?.issue?.path ?? issue.instancePath?.split('/').filter(Boolean) ?? [];
    const field = path.length > 0 ? path.join('.') : (context ?? 'request');
    return { field, message: issue.params?.issue?.message ?? issue.message ?? 'is invalid' };
  });
}

/** How deep a JSON body may nest: the deepest real input is a few levels; deeper is only a cost to us. */
export const MAX_BODY_DEPTH = 64;
const TOO_DEEP = `nested deeper than ${MAX_BODY_DEPTH} levels`;

/**
 * Whether JSON text opens more than `max` arrays or objects inside each other, found in one pass over the
 * text before it is parsed: JSON.parse spends ~200 ms on a 1 MB body nested 500,000 deep.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped, even a quote
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * Where in a parsed input a string carries a NUL character (PostgreSQL cannot store one in text), or
 * `tooDeep` for an input nested past MAX_BODY_DEPTH. Walked with a stack of its own: a recursive walk
 * overflowed the call stack (a 500) on an input nested 5,000 deep.
 */
function nulFieldsOf(input: unknown): { fields: string[]; tooDeep: boolean } {
  const fields: string[] = [];
  const stack: { value: unknown; path: string[] }[] = [{ value: input, path: [] }];
  while (stack.length > 0 && fields.length < 20) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) fields.push(path.join('.'));
    } else if (typeof value === 'object' && value !== null) {
      if (path.length >= MAX_BODY_DEPTH) return { fields, tooDeep: true };
      const entries: [string, unknown][] = Array.isArray(value)
        ? value.map((item: unknown, i) => [String(i), item])
        : Object.entries(value);
      // Pushed last to first, so fields are found (and named) in their order.
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        stack.push({ value: item, path: [...path, key] });
      }
    }
  }
  return { fields, tooDeep: false };
}

/**
 * Errors Fastify's router raises before any route (and so before the error handler) runs: a path parameter
 * with malformed percent-encoding or longer than the router allows. They answer in the API's error envelope.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void sendError(reply, 414, 'URL_TOO_LONG', 'path: a path parameter is too long');
  } else if (error.code === 'FST_ERR_BAD_URL') {
    void sendError(reply, 400, 'BAD_REQUEST', 'path: a path parameter is not valid percent-encoded UTF-8');
  } else {
    void sendError(reply, 400, 'BAD_REQUEST', 'The request could not be routed.');
  }
}

export function registerErrorHandling(app: FastifyInstance) {
  // Before the schemas run: a NUL in any text field is refused with the field named, for every route, where
  // it would otherwise reach PostgreSQL and fail as a 500.
  // A callback hook: it runs on every request, and the common case (no NUL) should cost no promise.
  app.addHook('preValidation', (request, reply, done) => {
    const found = [request.params, request.query, request.body].map(nulFieldsOf);
    if (found.some((f) => f.tooDeep)) {
      void sendError(reply, 400, 'VALIDATION_FAILED', `body: ${TOO_DEEP}`, {
        fields: [{ field: 'body', message: TOO_DEEP }],
      });
      return;
    }
    const fields = found
      .flatMap((f) => f.fields)
      .map((field) => ({ field: field || 'request', message: 'must not contain a NUL character' }));
    if (fields.length === 0) return done();
    const message = fields.map((f) => `${f.field}: ${f.message}`).join('; ');
    void sendError(reply, 400, 'VALIDATION_FAILED', message, { fields });
  });
  // A body nested too deep is refused before JSON.parse sees it; the rest is Fastify's own parser, so
  // "__proto__" keys are still dropped as the app's options say.
  const parseJson = app.getDefaultJsonParser('remove', 'remove');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (nestsDeeperThan(text, MAX_BODY_DEPTH)) {
      done(
        new HttpError(400, 'VALIDATION_FAILED', `body: ${TOO_DEEP}`, {
          fields: [{ field: 'body', message: TOO_DEEP }],
        }),
        undefined,
      );
      return;
    }
    void parseJson(request, text, done);
  });
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof HttpError) return sendError(reply, err.statusCode, err.code, err.message, err.extra);
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields = fieldErrorsOf(err.validation, err.validationContext);
      const message = fields.map((f) => `${f.field}: ${f.message}`).join('; ');
      return sendError(reply, 400, 'VALIDATION_FAILED', message, { fields });
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err }, 'response did not match its schema');
      return sendError(reply, 500, 'INTERNAL', 'The server could not complete the request.');
    }
    const status = err.statusCode ?? 500;
    if (status >= 500) {
      // Details of a 5xx stay in the server log: they can carry SQL or PHI.
      request.log.error({ err }, 'request failed');
      return sendError(reply, 500, 'INTERNAL', 'The server could not complete the request.');
    }
    if (status === 429) return sendError(reply, 429, 'RATE_LIMITED', RATE_LIMITED_MESSAGE);
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // Each route may set its own limit (an acknowledgement file takes 10 MB): the answer names it.
      const limit = request.routeOptions.bodyLimit ?? 0;
      const message = `must be at most ${limit >= 1024 * 1024 ? `${Math.floor(limit / (1024 * 1024))} MB` : `${Math.floor(limit / 1024)} KB`}`;
      return sendError(reply, 413, 'PAYLOAD_TOO_LARGE', `body: ${message}`, { fields: [{ field: 'body', message }] });
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return sendError(reply, status, 'BAD_REQUEST', 'body: must be JSON');
    }
    return sendError(reply, status, 'BAD_REQUEST', err.message);
  });
}
