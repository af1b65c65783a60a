/*
 * 271 files for tests and the demo, written by hand from the structure of ASC X12 005010X279A1: ISA/GS (HB), one
 * ST 271 with BHT, the payer (HL 20, NM1*PR), the provider (HL 21, NM1*1P), then per patient the subscriber (HL 22,
 * TRN*2 echoing the 270's trace, NM1*IL with the member id) and, for a dependent, HL 23 with its own TRN and NM1*03.
 */

export interface Answer271 {
  traceNumber: string;
  /** TRN03 as the 270 sent it ('1' and the practice's EIN). */
  originatorId: string;
  memberId: string;
  subscriber: { lastName: string; firstName: string };
  /** The patient when not the subscriber. */
  dependent?: { lastName: string; firstName: string };
  /** What follows the patient's NM1: DMG, DTP, EB, MSG, AAA… without terminators. */
  body: readonly string[];
}

export interface File271Options {
  payer?: { name: string; payerId: string };
  provider?: { name: string; npi: string };
  controlNumber?: number;
  /** Replaces the element separator '*' everywhere but in ISA (for a file with broken delimiters). */
  date?: string;
}

/** Benefits of an active plan: copay, coinsurance, deductible with remaining, out-of-pocket, in and out of network. */
export const ACTIVE_BENEFITS: readonly string[] = [
  'DTP*346*D8*20260101',
  'DTP*347*D8*20261231',
  'EB*1*IND*30*PR*Gold PPO 1500',
  'EB*B*IND*98*PR**27*25*****Y',
  'MSG*COPAY WAIVED FOR PREVENTIVE VISITS',
  'EB*B*IND*98*PR**27*60*****N',
  'EB*A*IND*98*PR**27**.2****Y',
  'EB*C*IND*30*PR**23*1500*****Y',
  'EB*C*IND*30*PR**29*1234.56*****Y',
  'EB*G*IND*30*PR**23*6000*****Y',
  'EB*G*IND*30*PR**29*5012.40*****Y',
];

export const INACTIVE_BENEFITS: readonly string[] = [
  'DTP*357*D8*20260630',
  'EB*6*IND*30',
  'MSG*COVERAGE TERMINATED 06/30/2026',
];

/** AAA 75 at 2100C: the payer cannot find the subscriber; C: correct and send again. */
export const SUBSCRIBER_NOT_FOUND: readonly string[] = ['AAA*Y**75*C'];

/** A 271 file answering each patient, one segment per line; SE01 counted. */
export function file271(answers: readonly Answer271[], options: File271Options = {}): string {
  const payer = options.payer ?? { name: 'Aetna', payerId: '60054' };
  const provider = options.provider ?? { name: 'Riverside Family Practice LLC', npi: '1667788990' };
  const control = options.controlNumber ?? 777;
  const date = options.date ?? '20261124';
  const set: string[] = [
    'ST*271*0001*005010X279A1',
    `BHT*0022*11*REF${control}*${date}*0931`,
    'HL*1**20*1',
    `NM1*PR*2*${payer.name}*****PI*${payer.payerId}`,
    'HL*2*1*21*1',
    `NM1*1P*2*${provider.name}*****XX*${provider.npi}`,
  ];
  let hl = 3;
  for (const a of answers) {
    const subscriberHl = hl++;
    if (a.dependent) {
      set.push(
        `HL*${subscriberHl}*2*22*1`,
        `NM1*IL*1*${a.subscriber.lastName}*${a.subscriber.firstName}****MI*${a.memberId}`,
        `HL*${hl++}*${subscriberHl}*23*0`,
        `TRN*2*${a.traceNumber}*${a.originatorId}`,
        `NM1*03*1*${a.dependent.lastName}*${a.dependent.firstName}`,
        ...a.body,
      );
    } else {
      set.push(
        `HL*${subscriberHl}*2*22*0`,
        `TRN*2*${a.traceNumber}*${a.originatorId}`,
        `NM1*IL*1*${a.subscriber.lastName}*${a.subscriber.firstName}****MI*${a.memberId}`,
        ...a.body,
      );
    }
  }
  set.push(`SE*${set.length + 1}*0001`);
  const isa = `ISA*00*          *00*          *ZZ*${'PRAIRIECH'.padEnd(15)}*ZZ*${'RIVERSIDE'.padEnd(15)}*${date.slice(2)}*0931*^*00501*${String(control).padStart(9, '0')}*0*T*:~`;
  return [
    isa,
    `GS*HB*PRAIRIECH*RIVERSIDE*${date}*0931*${control}*X*005010X279A1~`,
    ...set.map((s) => `${s}~`),
    `GE*1*${control}~`,
    `IEA*1*${String(control).padStart(9, '0')}~`,
  ]
    .map((s) => `${s}\n`)
    .join('');
}
