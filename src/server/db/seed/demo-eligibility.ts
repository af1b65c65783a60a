/**
 * The demo's eligibility answers (docs/x12-eligibility.md "In the product"): three policies asked about for today
 * and answered, one Active with benefits, one Inactive, one Rejected (AAA 75), so the screens show each kind. The
 * 271 files are written here by hand from the structure of ASC X12 005010X279A1 (the tests use the same writer):
 * ISA/GS (HB), one ST 271 with BHT, the payer (HL 20, NM1*PR), the provider (HL 21, NM1*1P), then per patient the
 * subscriber (HL 22, TRN*2 echoing the 270's trace, NM1*IL with the member id) and, for a dependent, HL 23 with its
 * own TRN and NM1*03. Deterministic: no random draw, ids and times from the seed's day.
 */
import { sql } from 'drizzle-orm';
import { eligibilitySummaryOf } from '@/features/coverage/server/coverage.eligibility.queries';
import { build270, read271 } from '@/features/x12/x12.270-271';
import { splitPersonName } from '@/features/x12/x12.837p';
import type { Tx } from '../types';
import { rawRows, rowText } from '../sql-helpers';
import { DEMO_BILLING_IDENTITY, DEMO_CLEARINGHOUSE } from './demo-coverage';

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
  /** CCYYMMDD of the answer (ISA09, GS04, BHT04). */
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

/** The three answers with dates around `today`: a plan of this calendar year, a policy ended last month. */
function answersFor(today: string): readonly (readonly string[])[] {
  const year = today.slice(0, 4);
  const monthStart = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
  monthStart.setUTCDate(0);
  const ended = monthStart.toISOString().slice(0, 10).replaceAll('-', '');
  return [
    ACTIVE_BENEFITS.map((s) => s.replace('20260101', `${year}0101`).replace('20261231', `${year}1231`)),
    [`DTP*357*D8*${ended}`, 'EB*6*IND*30', 'MSG*COVERAGE TERMINATED'],
    SUBSCRIBER_NOT_FOUND,
  ];
}

/** Asks about and answers three primary policies of patients who are their own subscriber, in force on `today`. */
export async function seedDemoEligibility(tx: Tx, today: string): Promise<number> {
  const picked = await rawRows(
    tx,
    sql`select v.id, v.member_id, v.group_number, v.payer, py.payer_id, p.name, p.dob::text as dob, p.sex
        from coverages v join patients p on p.id = v.patient_id join payers py on py.name = v.payer
        where v.priority = 1 and v.relationship = 'self' and py.payer_id is not null
          and py.claim_filing_indicator <> '09'
          and v.effective_on <= ${today}::date and (v.end_on is null or v.end_on >= ${today}::date)
        order by v.patient_id, v.id limit 3`,
  );
  const answers = answersFor(today);
  const day = today.replaceAll('-', '');
  // The evening before: asked at 6 pm, answered at 7 pm (UTC, whatever the practice's zone: a demo's times).
  const askedAt = new Date(`${today}T00:00:00Z`);
  askedAt.setUTCDate(askedAt.getUTCDate() - 1);
  askedAt.setUTCHours(18);
  const answeredAt = new Date(askedAt.getTime() + 3_600_000);
  const originatorId = `1${DEMO_BILLING_IDENTITY.taxId}`;
  for (const [i, c] of picked.entries()) {
    const [seq] = await rawRows(tx, sql`select nextval('eligibility_control_number_seq') as n`);
    const control = Number(seq?.n);
    const traceNumber = `${control}-1`;
    const memberId = rowText(c.member_id);
    const name = splitPersonName(rowText(c.name));
    const text270 = build270({
      envelope: {
        interchangeControlNumber: control,
        groupControlNumber: control,
        setControlNumbers: ['0001'],
        date: day,
        time: '1800',
        usage: 'T',
        reference: String(control),
        sender: { id: DEMO_CLEARINGHOUSE.ediSubmitterId, qualifier: 'ZZ' },
        receiver: { id: DEMO_CLEARINGHOUSE.ediReceiverId, qualifier: 'ZZ' },
      },
      originatorId,
      source: { name: rowText(c.payer), payerId: rowText(c.payer_id) },
      receiver: {
        kind: 'organization',
        name: DEMO_BILLING_IDENTITY.billingName,
        npi: DEMO_BILLING_IDENTITY.billingNpi,
      },
      inquiries: [
        {
          traceNumber,
          subscriber: {
            name: { lastName: name.lastName, firstName: name.firstName },
            memberId,
            dob: rowText(c.dob),
            sex: rowText(c.sex) === 'F' || rowText(c.sex) === 'M' ? (rowText(c.sex) as 'F' | 'M') : null,
            groupNumber: (c.group_number as string | null) ?? null,
          },
          serviceDate: today,
        },
      ],
    });
    const text271 = file271(
      [
        {
          traceNumber,
          originatorId,
          memberId,
          subscriber: { lastName: name.lastName.toUpperCase(), firstName: name.firstName.toUpperCase() },
          body: answers[i] ?? [],
        },
      ],
      {
        payer: { name: rowText(c.payer), payerId: rowText(c.payer_id) },
        provider: { name: DEMO_BILLING_IDENTITY.billingName, npi: DEMO_BILLING_IDENTITY.billingNpi },
        controlNumber: 700 + i,
        date: day,
      },
    );
    const person = read271(text271).flatMap((set) => set.people)[0];
    if (!person) throw new Error('the demo 271 answers no one');
    const { status, summary } = eligibilitySummaryOf(person);
    const [inquiry] = await rawRows(
      tx,
      sql`insert into eligibility_inquiries (created_at, created_by, reason, text, interchange_control_number,
            group_control_number, service_date, check_count, mailed_at)
          values (${askedAt.toISOString()}::timestamptz, null, 'evening', ${text270}, ${control}, ${control},
            ${today}::date, 1, ${askedAt.toISOString()}::timestamptz)
          returning id`,
    );
    const [response] = await rawRows(
      tx,
      sql`insert into eligibility_responses (received_at, received_by, sha256, file_name, text, answered_count,
            active_count, inactive_count, rejected_count)
          values (${answeredAt.toISOString()}::timestamptz, null, encode(sha256(convert_to(${text271}, 'UTF8')), 'hex'),
            ${`271-${control}.txt`}, ${text271}, 1, ${status === 'Active' ? 1 : 0}, ${status === 'Inactive' ? 1 : 0},
            ${status === 'Rejected' ? 1 : 0})
          returning id`,
    );
    await tx.execute(sql`insert into eligibility_checks (coverage_id, inquiry_id, service_date, trace_number, member_id,
          status, requested_at, answered_at, summary, response_id)
        values (${Number(c.id)}, ${Number(inquiry?.id)}, ${today}::date, ${traceNumber}, ${memberId}, ${status},
          ${askedAt.toISOString()}::timestamptz, ${answeredAt.toISOString()}::timestamptz,
          ${JSON.stringify(summary)}::jsonb, ${Number(response?.id)})`);
  }
  return picked.length;
}
