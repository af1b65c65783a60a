import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { showFieldErrors } from './form-errors';

interface Form {
  name: string;
  address: { zip: string };
  state: string;
}

function refusal(fields: { field: string; message: string }[]) {
  return new ApiError(400, 'Invalid input', 'VALIDATION_FAILED', 'Invalid input', fields, null);
}

describe('showFieldErrors', () => {
  it("puts each field's message under the form's field, a nested path under its field, and focuses it", () => {
    const set: unknown[] = [];
    const shown = showFieldErrors<Form>(
      (name, error, options) => set.push([name, error, options]),
      refusal([
        { field: 'name', message: 'is required' },
        { field: 'address.zip', message: 'must be 5 or 9 digits' },
        { field: 'mrn', message: 'is taken' },
      ]),
      ['name', 'address', 'state'],
    );
    expect(shown).toBe(2);
    expect(set).toEqual([
      ['name', { type: 'server', message: 'is required' }, { shouldFocus: true }],
      ['address', { type: 'server', message: 'must be 5 or 9 digits' }, { shouldFocus: true }],
    ]);
  });

  it('shows nothing for an error that is not a refusal from the server, or a field named only by its start', () => {
    const set: unknown[] = [];
    const record = (name: unknown) => set.push(name);
    expect(showFieldErrors<Form>(record, new Error('offline'), ['name'])).toBe(0);
    expect(showFieldErrors<Form>(record, refusal([{ field: 'statement', message: 'x' }]), ['state'])).toBe(0);
    expect(set).toEqual([]);
  });
});
