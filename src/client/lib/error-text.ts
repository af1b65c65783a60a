import { ApiError } from './api-client';

/**
 * What went wrong, in words a person reads. The server's own message when it sent one (its field
 * messages first); otherwise a sentence chosen by status, never the raw "500: Internal Server Error" of an
 * answer without our error envelope (a proxy's page, a crashed upstream) or a browser's "Failed to fetch".
 */
export function errorTextFor(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.fields.length > 0) return error.fields.map((f) => f.message).join('; ');
    if (error.serverMessage) return error.serverMessage;
    if (error.status >= 500) return 'The server could not complete the request. Please try again in a moment.';
    if (error.status === 429) return 'Too many requests. Please wait a moment and try again.';
    if (error.status === 401) return 'Your session expired — sign in again';
    if (error.status === 403) return 'You do not have permission to do this.';
    if (error.status === 404) return 'It was not found; it may have been removed. Reload to see the current state.';
    return 'The request was refused. Please check the form and try again.';
  }
  // fetch rejects with a TypeError when the server cannot be reached at all.
  if (error instanceof TypeError) return 'Could not reach the server. Check the connection and try again.';
  return 'Something went wrong. Please try again.';
}
