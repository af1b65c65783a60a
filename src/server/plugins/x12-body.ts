import type { FastifyInstance } from 'fastify';
import { HttpError } from '@/server/plugins/errors';

/** An X12 file is sent as the request body itself, labelled as one of these (ASC X12 has no JSON form). */
export const X12_MEDIA_TYPES = ['application/edi-x12', 'text/plain'];

/**
 * Makes the routes of the calling plugin (its own Fastify context, not the whole app) read an X12 body as a
 * string of at most `bodyLimit` bytes, and refuse any other content type with 415 naming the body before a
 * handler runs: an X12 file wrapped in JSON or a form is a client mistake worth a clear answer.
 */
export function acceptX12Body(app: FastifyInstance, bodyLimit: number): void {
  app.removeContentTypeParser(['text/plain', 'application/json']);
  app.addContentTypeParser(X12_MEDIA_TYPES, { parseAs: 'string', bodyLimit }, (_request, body, done) =>
    done(null, body),
  );
  app.addContentTypeParser('*', (request, _payload, done) => {
    const message = `must be the X12 file itself, sent as ${X12_MEDIA_TYPES.join(' or ')}`;
    done(
      new HttpError(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        `body: ${message}, not ${request.headers['content-type'] ?? 'no content type'}`,
        { fields: [{ field: 'body', message }] },
      ),
      undefined,
    );
  });
}

/** The X12 text a route received, or a 400 naming the body when none came. */
export function x12BodyOf(body: unknown): string {
  if (typeof body === 'string') return body;
  throw new HttpError(400, 'VALIDATION_FAILED', 'body: must be the X12 file as text', {
    fields: [{ field: 'body', message: 'must be the X12 file as text' }],
  });
}
