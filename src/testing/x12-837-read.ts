/**
 * An 837P read back into the claim fields it was written from (CLM, REF*F8, HI, SV1, DTP*472, REF*6R and the
 * subscriber's or patient's NM1), for tests that check a file against the claims it came from.
 */
import { components, elementOf, parseX12, transactionSetsOf, type X12Segment } from '@/features/x12/x12.parse';

export function claimsReadBack(text: string) {
  const document = parseX12(text);
  const found: {
    accountNumber: string;
    totalCents: number;
    frequencyCode: string;
    placeOfService: string;
    originalClaimNumber: string | null;
    diagnoses: string[];
    memberId: string;
    patient: string;
    lines: {
      procedureCode: string;
      modifiers: string[];
      chargeCents: number;
      units: number;
      diagnosisPointers: number[];
      serviceDate: string;
      lineControlNumber: string;
    }[];
  }[] = [];
  const cents = (amount: string) => Math.round(Number(amount) * 100);
  for (const { set } of transactionSetsOf(document, '837')) {
    let memberId = '';
    let patient = '';
    let current: (typeof found)[number] | null = null;
    let line: (typeof found)[number]['lines'][number] | null = null;
    const split = (segment: X12Segment, n: number) => components(elementOf(segment, n), document.delimiters);
    for (const segment of set.segments) {
      const e = (n: number) => elementOf(segment, n);
      if (segment.id === 'NM1' && e(1) === 'IL') {
        memberId = e(9);
        patient = `${e(4)} ${e(3)}`;
      }
      if (segment.id === 'NM1' && e(1) === 'QC') patient = `${e(4)} ${e(3)}`;
      if (segment.id === 'HL' && e(3) === '22') current = null;
      if (segment.id === 'CLM') {
        const [placeOfService = '', , frequencyCode = ''] = split(segment, 5);
        current = {
          accountNumber: e(1),
          totalCents: cents(e(2)),
          frequencyCode,
          placeOfService,
          originalClaimNumber: null,
          diagnoses: [],
          memberId,
          patient,
          lines: [],
        };
        found.push(current);
      }
      if (!current) continue;
      if (segment.id === 'REF' && e(1) === 'F8') current.originalClaimNumber = e(2);
      if (segment.id === 'HI') {
        current.diagnoses = segment.elements.map((el) => components(el, document.delimiters)[1] ?? '');
      }
      if (segment.id === 'SV1') {
        const [, procedureCode = '', ...modifiers] = split(segment, 1);
        line = {
          procedureCode,
          modifiers,
          chargeCents: cents(e(2)),
          units: Number(e(4)),
          diagnosisPointers: split(segment, 7).map(Number),
          serviceDate: '',
          lineControlNumber: '',
        };
        current.lines.push(line);
      }
      if (segment.id === 'DTP' && e(1) === '472' && line) line.serviceDate = e(3);
      if (segment.id === 'REF' && e(1) === '6R' && line) line.lineControlNumber = e(2);
    }
  }
  return found;
}
