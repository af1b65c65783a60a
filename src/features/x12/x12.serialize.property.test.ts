import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyUnicodeChar } from '@/testing/any-text';
import { parseX12, X12_DEFAULT_DELIMITERS, X12_ENVELOPE_IDS, type X12Delimiters } from './x12.parse';
import {
  envelope,
  x12Text,
  type EnvelopeInput,
  type TransactionSetInput,
  type X12Element,
  type X12SegmentInput,
} from './x12.serialize';

/** Punctuation real trading partners use as delimiters, and a few they might. */
const DELIMITER_CHOICES = ['*', '|', '~', '^', ':', '>', '!', '`', '{', '}', '\\', '+', '#', '@', '<', '=', '%'];
const PRINTABLE = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i));

const delimitersArb: fc.Arbitrary<X12Delimiters> = fc
  .shuffledSubarray(DELIMITER_CHOICES, { minLength: 4, maxLength: 4 })
  .map(([element = '*', repetition = '^', component = ':', segment = '~']) => ({
    element,
    repetition,
    component,
    segment,
  }));

/** Built once: fc.stringMatching compiles its pattern into an arbitrary, which costs milliseconds every time. */
const segmentIdArb = fc.stringMatching(/^[A-Z0-9]{2,3}$/).filter((id) => !X12_ENVELOPE_IDS.has(id));

function bodyArb(delimiters: X12Delimiters): fc.Arbitrary<X12SegmentInput[][]> {
  const reserved = new Set(Object.values(delimiters));
  const char = fc.constantFrom(...PRINTABLE.filter((c) => !reserved.has(c)));
  // Empty values are drawn often, so that trailing empties (which the writer leaves out) are common.
  const value = fc.oneof(fc.constant(''), fc.string({ unit: char, minLength: 1, maxLength: 8 }));
  const composite = fc.array(value, { minLength: 1, maxLength: 4 });
  const element: fc.Arbitrary<X12Element> = fc.oneof(
    { weight: 4, arbitrary: value },
    { weight: 2, arbitrary: composite },
    { weight: 1, arbitrary: fc.array(composite, { minLength: 1, maxLength: 3 }) },
  );
  const segment = fc.record({
    id: segmentIdArb,
    elements: fc.array(element, { maxLength: 8 }),
  });
  return fc.array(fc.array(segment, { maxLength: 6 }), { minLength: 1, maxLength: 3 });
}

function trimTrailingEmpty(values: string[]): string[] {
  const out = [...values];
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out;
}

/** What the element reads back as: X12 leaves out trailing empty components, repetitions and elements. */
function writtenAs(element: X12Element, d: X12Delimiters): string {
  if (typeof element === 'string') return element;
  const parts = element as readonly (string | readonly string[])[];
  const composite = (values: readonly string[]) => trimTrailingEmpty([...values]).join(d.component);
  if (parts.every((part) => typeof part === 'string')) return composite(parts);
  return trimTrailingEmpty((parts as readonly (readonly string[])[]).map(composite)).join(d.repetition);
}

function interchange(delimiters: X12Delimiters, bodies: X12SegmentInput[][]): EnvelopeInput {
  const sets: TransactionSetInput[] = bodies.map((segments, i) => ({
    id: '837',
    controlNumber: String(i + 1).padStart(4, '0'),
    implementation: '005010X222A1',
    segments,
  }));
  return {
    delimiters,
    isa: {
      senderQualifier: 'ZZ',
      senderId: 'CLINIC',
      receiverQualifier: 'ZZ',
      receiverId: 'CLEARINGHOUSE',
      date: '260316',
      time: '0930',
      controlNumber: 1,
      ackRequested: '0',
      usage: 'T',
    },
    gs: {
      functionalId: 'HC',
      senderId: 'CLINIC',
      receiverId: 'CLEARINGHOUSE',
      date: '20260316',
      time: '0930',
      controlNumber: 1,
      version: '005010X222A1',
    },
    sets,
  };
}

describe('envelope then parseX12', () => {
  it('reads back every segment written, whatever the delimiters', () => {
    const caseArb = delimitersArb.chain((delimiters) =>
      fc.record({ delimiters: fc.constant(delimiters), bodies: bodyArb(delimiters), newline: fc.boolean() }),
    );
    fc.assert(
      fc.property(caseArb, ({ delimiters, bodies, newline }) => {
        const doc = parseX12(envelope(interchange(delimiters, bodies), { newline }));
        expect(doc.delimiters).toEqual(delimiters);
        const sets = doc.interchanges[0]?.groups[0]?.transactionSets ?? [];
        expect(sets.map((set) => set.segments.map(({ id, elements }) => ({ id, elements })))).toEqual(
          bodies.map((body) =>
            body.map(({ id, elements }) => ({
              id,
              elements: trimTrailingEmpty(elements.map((element) => writtenAs(element, delimiters))),
            })),
          ),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('writes any text once x12Text has cleaned it, and reads back exactly the cleaned text', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: anyUnicodeChar, maxLength: 30 }), { maxLength: 6 }), (texts) => {
        const cleaned = texts.map((text) => x12Text(text));
        const doc = parseX12(
          envelope(interchange(X12_DEFAULT_DELIMITERS, [[{ id: 'NTE', elements: ['ADD', ...cleaned] }]])),
        );
        const nte = doc.interchanges[0]?.groups[0]?.transactionSets[0]?.segments[0];
        expect(nte?.elements).toEqual(trimTrailingEmpty(['ADD', ...cleaned]));
      }),
      { numRuns: 200 },
    );
  });
});
