import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MASKED_FIELDS,
  RESTRICTED,
  ROLES,
  maskList,
  maskPatient,
  maskText,
  seesField,
  type PatientPhi,
  type Role,
} from './access';

/**
 * PHI masking (docs/access.md) as properties over arbitrary records (docs/security.md; ASVS V8.2.3 field-level
 * authorization, HIPAA 164.502(b) minimum necessary). The strongest one is non-interference: two records
 * that agree only on what a mask may show (dob year, last four phone digits, MRN length and last two
 * characters, whether a field is empty) mask to the same value, so a masked value reveals nothing else.
 */
const role = fc.constantFrom(...ROLES);
const isoDate = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2026-11-22T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const text = fc.string({ unit: 'grapheme', maxLength: 40 });
const phi: fc.Arbitrary<PatientPhi> = fc.record({
  dob: fc.oneof(isoDate, fc.constant('')),
  phone: fc.oneof(fc.stringMatching(/^[0-9()+\-. ]{0,25}$/), text),
  mrn: fc.oneof(fc.stringMatching(/^[A-Za-z0-9-]{0,40}$/), text),
  notes: text,
  allergies: fc.array(text, { maxLength: 5 }),
  meds: fc.array(text, { maxLength: 5 }),
});

/** Another record that keeps exactly what a mask may reveal of `record` and randomises the rest. */
function twinOf(record: PatientPhi): fc.Arbitrary<PatientPhi> {
  const digits = record.phone.replace(/\D/g, '');
  // Fewer than four digits mask to '***' whatever they are; otherwise only the last four show.
  const phone =
    digits.length < 4
      ? fc.stringMatching(/^[()+\-. ]{1,3}$/)
      : fc.stringMatching(/^[0-9() -]{0,20}$/).map((prefix) => `${prefix} ${digits.slice(-4)}`);
  return fc.record({
    dob: record.dob === '' ? fc.constant('') : isoDate.map((d) => `${record.dob.slice(0, 4)}${d.slice(4)}`),
    phone: record.phone === '' ? fc.constant('') : phone,
    mrn:
      record.mrn.length <= 2
        ? fc.constant(record.mrn)
        : fc
            .string({ minLength: record.mrn.length - 2, maxLength: record.mrn.length - 2, unit: 'binary-ascii' })
            .map((head) => head + record.mrn.slice(-2)),
    notes: record.notes === '' ? fc.constant('') : text.filter((t) => t !== ''),
    allergies: record.allergies.length === 0 ? fc.constant([]) : fc.array(text, { minLength: 1, maxLength: 5 }),
    meds: record.meds.length === 0 ? fc.constant([]) : fc.array(text, { minLength: 1, maxLength: 5 }),
  });
}

describe('PHI masking (property)', () => {
  it('shows a field unchanged to the roles that may see it, and only the allowed shape to the others', () => {
    fc.assert(
      fc.property(phi, role, (record, who) => {
        const masked = maskPatient(record, who);
        for (const field of MASKED_FIELDS) {
          if (seesField(who, field)) expect(masked[field]).toEqual(record[field]);
        }
        if (!seesField(who, 'dob')) {
          expect(masked.dob).toBe(record.dob === '' ? '' : `XX-XX-${record.dob.slice(0, 4)}`);
        }
        if (!seesField(who, 'phone') && record.phone !== '') {
          const digits = record.phone.replace(/\D/g, '');
          expect(masked.phone).toBe(digits.length < 4 ? '***' : `***-***-${digits.slice(-4)}`);
        }
        if (!seesField(who, 'mrn')) {
          expect(masked.mrn).toHaveLength(record.mrn.length);
          expect(masked.mrn.slice(0, -2)).toMatch(/^\**$/);
        }
        if (!seesField(who, 'notes')) expect(masked.notes).toBe(record.notes === '' ? '' : RESTRICTED);
        for (const list of ['allergies', 'meds'] as const) {
          if (!seesField(who, list)) expect(masked[list]).toEqual(record[list].length === 0 ? [] : [RESTRICTED]);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('reveals nothing of a hidden field beyond the allowed part (two such records mask alike)', () => {
    fc.assert(
      fc.property(
        phi.chain((record) => fc.tuple(fc.constant(record), twinOf(record))),
        role,
        ([record, twin], who) => {
          const a = maskPatient(record, who);
          const b = maskPatient(twin, who);
          for (const field of MASKED_FIELDS) {
            if (!seesField(who, field)) expect(b[field], field).toEqual(a[field]);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('masks every field with maskText/maskList exactly as maskPatient does, and keeps other keys and absences', () => {
    fc.assert(
      fc.property(phi, role, fc.string(), fc.subarray([...MASKED_FIELDS]), (record, who, name, present) => {
        const partial: Partial<PatientPhi> & { name: string } = { name };
        for (const field of present) Object.assign(partial, { [field]: record[field] });
        const masked = maskPatient(partial, who);
        expect(masked.name).toBe(name);
        expect(Object.keys(masked).sort()).toEqual(Object.keys(partial).sort());
        if (partial.dob !== undefined) expect(masked.dob).toBe(maskText('dob', partial.dob, who));
        if (partial.phone !== undefined) expect(masked.phone).toBe(maskText('phone', partial.phone, who));
        if (partial.mrn !== undefined) expect(masked.mrn).toBe(maskText('mrn', partial.mrn, who));
        if (partial.notes !== undefined) expect(masked.notes).toBe(maskText('notes', partial.notes, who));
        if (partial.allergies !== undefined) {
          expect(masked.allergies).toEqual(maskList('allergies', partial.allergies, who));
        }
        if (partial.meds !== undefined) expect(masked.meds).toEqual(maskList('meds', partial.meds, who));
      }),
      { numRuns: 1000 },
    );
  });

  it('never returns the input list itself (a caller mutating the result cannot change the record)', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 4 }), role, (values, who: Role) => {
        expect(maskList('meds', values, who)).not.toBe(values);
      }),
    );
  });
});
