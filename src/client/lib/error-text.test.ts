import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { errorTextFor } from './error-text';

const apiError = (status: number, serverMessage: string | null, fields: { field: string; message: string }[] = []) =>
  new ApiError(status, `${status}: Internal Server Error`, null, serverMessage, fields, null);

describe('errorTextFor', () => {
  it("uses the server's field messages, then its message", () => {
    expect(errorTextFor(apiError(422, 'time: taken', [{ field: 'time', message: 'taken' }]))).toBe('taken');
    expect(errorTextFor(apiError(409, 'Dr. Kim already has an appointment'))).toBe(
      'Dr. Kim already has an appointment',
    );
  });

  it('never shows a raw status line when the answer had no message', () => {
    for (const status of [400, 401, 403, 404, 409, 429, 500, 502, 503]) {
      const text = errorTextFor(apiError(status, null));
      expect(text).not.toMatch(/^\d{3}\b|Internal Server Error/);
      expect(text.length).toBeGreaterThan(10);
    }
    expect(errorTextFor(apiError(500, null))).toBe(
      'The server could not complete the request. Please try again in a moment.',
    );
  });

  it('says the server could not be reached when fetch itself failed', () => {
    expect(errorTextFor(new TypeError('Failed to fetch'))).toBe(
      'Could not reach the server. Check the connection and try again.',
    );
  });
});
