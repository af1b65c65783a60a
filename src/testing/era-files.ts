/**
 * Writing 835 test files by hand (ASC X12 005010X221A1): the body's segments are written as text, one per line,
 * and `eraFile` wraps them in ST…SE, GS…GE and ISA…IEA with counts and control numbers right. Used by tests only.
 */
import { envelope } from '@/features/x12/x12.serialize';

/** A segment written as X12 text with * and : ('CLP*ACC-1*1*100*80', 'SVC*HC:99213:25*100*80**1'). */
function segment(text: string) {
  const [id = '', ...elements] = text.split('*');
  return { id, elements: elements.map((e) => (e.includes(':') ? e.split(':') : e)) };
}

export interface EraFileOptions {
  version?: string;
  controlNumber?: number;
}

/** Cents as an X12 amount (R data element): dollars with two decimals, a leading minus for a reversal. */
export function amt(cents: number): string {
  const whole = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
}

/** The whole file of one 835 transaction set whose body is `lines` (BPR…PLB). */
export function eraFile(lines: readonly string[], options: EraFileOptions = {}): string {
  return eraFileOfSets([lines], options);
}

/**
 * One file of several 835 transaction sets in one functional group, as a clearinghouse sends several payments
 * at once: each body (BPR…PLB) its own ST…SE, numbered 0001, 0002, …
 */
export function eraFileOfSets(bodies: readonly (readonly string[])[], options: EraFileOptions = {}): string {
  const version = options.version ?? '005010X221A1';
  const control = options.controlNumber ?? 1;
  return envelope({
    isa: {
      senderQualifier: 'ZZ',
      senderId: 'PAYERSENDER',
      receiverQualifier: 'ZZ',
      receiverId: 'CLINIC',
      date: '261120',
      time: '1000',
      controlNumber: control,
      ackRequested: '0',
      usage: 'T',
    },
    gs: {
      functionalId: 'HP',
      senderId: 'PAYERSENDER',
      receiverId: 'CLINIC',
      date: '20261120',
      time: '1000',
      controlNumber: control,
      version,
    },
    sets: bodies.map((lines, i) => ({
      id: '835',
      controlNumber: String(bodies.length === 1 ? control : i + 1).padStart(4, '0'),
      implementation: version,
      segments: lines.map(segment),
    })),
  });
}

/** The header of a remittance: payment, trace, dates, payer and payee (BPR through N1*PE). */
export function eraHeader(o: {
  paid: string;
  trace: string;
  payer?: string;
  payerId?: string;
  date?: string;
}): string[] {
  const date = o.date ?? '20261118';
  return [
    `BPR*I*${o.paid}*C*ACH*CCP*01*999999992*DA*123456789*1512345678**01*999988880*DA*98765*${date}`,
    `TRN*1*${o.trace}*1${o.payerId ?? '512345678'}`,
    `DTM*405*${date}`,
    `N1*PR*${o.payer ?? 'Aetna'}`,
    'N3*151 FARMINGTON AVENUE',
    'N4*HARTFORD*CT*06156',
    'PER*BL*PROVIDER SERVICES*TE*8005551234',
    'N1*PE*DEMO CLINIC*XX*1234567893',
    'LX*1',
  ];
}
