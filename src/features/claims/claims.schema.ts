import { z } from 'zod';
import {
  bodyIdSchema,
  cursorPageShape,
  dollarsToCents,
  isoDateSchema,
  listQuerySchema,
  MAX_ROW_ID,
} from '@/shared/api';
import { npiValueSchema } from '@/shared/billing-identifiers.schema';
import { eligibilityBriefSchema } from '@/features/coverage/coverage.eligibility.schema';

/**
 * A claim's life cycle: Draft → Ready (scrubbed clean) → Submitted → Accepted or Rejected by the
 * clearinghouse → Pending with the payer → Paid, Partially Paid, Denied or Appealed → Written Off or Closed.
 */
export const CLAIM_STATUSES = [
  'Draft',
  'Ready',
  'Submitted',
  'Accepted',
  'Rejected',
  'Pending',
  'Paid',
  'Partially Paid',
  'Denied',
  'Appealed',
  'Written Off',
  'Closed',
] as const;
export const claimStatusSchema = z.enum(CLAIM_STATUSES);

/**
 * A claim paid in full: Paid while something is still owed on it (the patient's share), Closed once nothing is
 * (resolved_on set; the database keeps the two agreeing, docs/claims.md). Every KPI, rollup and figure that counts
 * paid claims counts both.
 */
export const PAID_STATUSES = ['Paid', 'Closed'] as const satisfies readonly ClaimStatus[];

/** The status to write for a claim with `status` and this resolved state, as claims_closed_check asks (the seeds). */
export function statusWhenSettled(status: string, resolved: boolean): string {
  if (status === 'Paid' && resolved) return 'Closed';
  if (status === 'Closed' && !resolved) return 'Paid';
  return status;
}

/** One finding of the claim scrubber (features/submission/submission.scrubber.ts): an error holds the claim, a warning needs a reason. */
export const scrubEditSchema = z.object({
  code: z.string(),
  severity: z.enum(['error', 'warning']),
  field: z.string(),
  message: z.string(),
});

/** `POST /api/claims/:id/scrub`: a reason accepts the warnings found (audited); errors cannot be accepted. */
export const scrubRequestSchema = z
  .object({
    overrideReason: z
      .string()
      .trim()
      .min(5, 'must say why the warnings are accepted (at least 5 characters)')
      .max(500, 'must be at most 500 characters')
      .optional(),
  })
  .strict();
export type ScrubRequest = z.infer<typeof scrubRequestSchema>;

/** What one scrub found and where it left the claim (Draft while held, Ready when clean). */
export const claimScrubResultSchema = z.object({
  claimId: z.number().int(),
  accountNumber: z.string(),
  clean: z.boolean(),
  status: claimStatusSchema,
  edits: z.array(scrubEditSchema),
  overrideReason: z.string().nullable(),
  scrubbedAt: z.string(),
});
export type ClaimScrubResult = z.infer<typeof claimScrubResultSchema>;

/** `POST /api/claims/scrub`: every Draft claim scrubbed in one go. */
export const batchScrubResultSchema = z.object({
  scrubbed: z.number().int(),
  ready: z.number().int(),
  held: z.number().int(),
  results: z.array(claimScrubResultSchema),
});
export type BatchScrubResult = z.infer<typeof batchScrubResultSchema>;

/**
 * A service line's control number (X12 REF*6R, echoed back in the 835): the claim's patient control number
 * and the line's number, unique in the practice because patient control numbers are.
 */
export function lineControlNumber(patientControlNumber: string, lineNumber: number): string {
  return `${patientControlNumber}-${lineNumber}`;
}
export type ClaimStatus = z.infer<typeof claimStatusSchema>;

/**
 * What the Claims list shows as a claim's status: its stored status, or Voided for a claim entered by
 * mistake and voided (it keeps its stored status underneath, for the record).
 */
export const CLAIM_ROW_STATUSES = [...CLAIM_STATUSES, 'Voided'] as const;
export const claimRowStatusSchema = z.enum(CLAIM_ROW_STATUSES);
export type ClaimRowStatus = z.infer<typeof claimRowStatusSchema>;

export const PAYERS = [
  'Medicare',
  'Medicaid',
  'Aetna',
  'Blue Cross Blue Shield',
  'UnitedHealthcare',
  'Cigna',
  'Humana',
  'Kaiser Permanente',
  'Tricare',
  'Self-Pay',
] as const;
export const payerSchema = z.enum(PAYERS);
export type Payer = z.infer<typeof payerSchema>;

/** A CARC adjustment reason as group + code, e.g. CO-197. */
export const reasonCodeSchema = z.string().regex(/^(CO|PR|OA|PI|CR)-[A-Z0-9]{1,4}$/, 'must be a CARC code like CO-197');

export const CARC_GROUPS = ['CO', 'PR', 'OA', 'PI', 'CR'] as const;
export type CarcGroup = (typeof CARC_GROUPS)[number];

/**
 * Adjustment codes that are not denials (standard CARC codes): the contractual write-down and the patient's
 * share. A claim carrying one of these was paid as agreed.
 */
export const NON_DENIAL_CODES = ['CO-45', 'PR-1', 'PR-2', 'PR-3'] as const;

/** Our own short wording of the denial codes a clinic commonly sees (CARC). */
export const DENIAL_DESCRIPTIONS: Readonly<Record<string, string>> = {
  'CO-4': 'Modifier missing or inconsistent with the procedure code',
  'CO-11': 'Diagnosis does not support the procedure billed',
  'CO-15': 'Authorization number missing or invalid',
  'CO-16': 'Claim is missing information or has billing errors',
  'OA-18': 'Exact duplicate of a claim already received',
  'CO-22': 'Another payer may be primary (coordination of benefits)',
  'CO-27': 'Service date falls after coverage ended',
  'CO-29': 'Timely filing limit has passed',
  'CO-50': 'Payer judged the service not medically necessary',
  'CO-96': 'Charge is not covered',
  'CO-97': 'Bundled: paid as part of another service on the same day',
  'CO-109': 'Not covered by this payer; bill the correct payer',
  'CO-197': 'Precertification or authorization was not obtained',
  'CO-204': "Not covered under the patient's current benefit plan",
};

/**
 * What a person types to find a reason code, reduced to what it must match: 'CO 197', 'co-197' and
 * 'CO197' all mean the code CO-197; '197' alone means that number in any group; 'CO' alone means every
 * CO code. Returns null for text that cannot be part of a CARC code.
 */
export function parseReasonFilter(text: string): { group: CarcGroup | null; number: string | null } | null {
  const match = /^([A-Za-z]{2})?[\s_-]*([A-Za-z0-9]{1,4})?$/.exec(text.trim());
  if (!match || (!match[1] && !match[2])) return null;
  const group = match[1]?.toUpperCase() ?? null;
  if (group !== null && !(CARC_GROUPS as readonly string[]).includes(group)) return null;
  const number = match[2]?.toUpperCase() ?? null;
  // 'CO' typed alone is a group; two letters alone that are not a group are not a code.
  return { group: group as CarcGroup | null, number };
}

/** The reason filter as the query carries it: '' for none, else text that `parseReasonFilter` accepts. */
export const reasonFilterSchema = z
  .string()
  .trim()
  .max(12, 'must be at most 12 characters')
  .refine((text) => text === '' || parseReasonFilter(text) !== null, {
    message: 'must be a CARC code such as CO 197, CO-197 or 197',
  });

/** A claim as the Claims table shows it. Money is integer cents. */
/** X12 CLM05-3, the claim frequency: 1 an original claim, 7 a replacement, 8 a void (of the payer's claim). */
export const CLAIM_FREQUENCY_CODES = ['1', '7', '8'] as const;
export const claimFrequencySchema = z.enum(CLAIM_FREQUENCY_CODES, {
  error: 'must be 1 (original), 7 (replacement) or 8 (void)',
});

export const claimRowSchema = z.object({
  id: z.number().int(),
  patient: z.string(),
  accountNumber: z.string(),
  /** The CPT/HCPCS code billed. */
  procedure: z.string(),
  provider: z.string(),
  payer: z.string(),
  serviceDate: z.string(),
  billedCents: z.number().int(),
  paidCents: z.number().int(),
  /** Days from the service date to resolution, or to today while the claim is unresolved. */
  daysAR: z.number().int(),
  /**
   * What is still owed on the claim by anyone: billed − paid by the payer − contractual adjustment − the
   * patient's payments, never below 0; 0 once the claim is resolved or written off.
   */
  balanceCents: z.number().int(),
  status: claimRowStatusSchema,
  /**
   * X12 CLM05-3: 1 an original claim, 7 a replacement or 8 a void of the claim the payer already has (a claim
   * reopened to be corrected or voided at the payer), which voiding it here does not touch.
   */
  frequencyCode: claimFrequencySchema,
  /** The denial or main adjustment CARC code; null when nothing was adjusted. */
  reason: z.string().nullable(),
  denialDescription: z.string().nullable(),
});
export type ClaimRow = z.infer<typeof claimRowSchema>;

/** Sortable columns of the Claims table, by the row field each one shows. */
export const CLAIM_SORT_KEYS = [
  'serviceDate',
  'patient',
  'accountNumber',
  'procedure',
  'provider',
  'payer',
  'billedCents',
  'paidCents',
  'daysAR',
  'status',
] as const;
export type ClaimSortKey = (typeof CLAIM_SORT_KEYS)[number];

/** The filters' fields, without the check that ties two of them together (`withServiceDateRange`). */
const claimFilterShape = {
  search: z.string().trim().max(100, 'must be at most 100 characters').default(''),
  payer: z.enum(PAYERS, { message: `must be one of: ${PAYERS.join(', ')}` }).optional(),
  reason: reasonFilterSchema.default(''),
  status: z.enum(CLAIM_STATUSES, { message: `must be one of: ${CLAIM_STATUSES.join(', ')}` }).optional(),
  /** The rendering provider's id (GET /api/claims/providers lists them). */
  providerId: z.coerce
    .number({ message: 'must be a provider id' })
    .int('must be a provider id')
    .positive('must be a provider id')
    .max(MAX_ROW_ID, 'is not a known provider id')
    .optional(),
  /** One patient's claims (the patient snapshot lists them). */
  patientId: z.coerce
    .number({ message: 'must be a patient id' })
    .int('must be a patient id')
    .positive('must be a patient id')
    .max(MAX_ROW_ID, 'is not a known patient id')
    .optional(),
  /** Service date on or after this day. */
  from: isoDateSchema.optional(),
  /** Service date on or before this day. */
  to: isoDateSchema.optional(),
};

/** A service-date range that ends before it starts is refused, naming `to`. */
function withServiceDateRange<T extends z.ZodType<{ from?: string | undefined; to?: string | undefined }>>(schema: T) {
  return schema.refine((filter) => !filter.from || !filter.to || filter.from <= filter.to, {
    path: ['to'],
    message: 'must be on or after from',
  });
}

/** Filters shared by the list, the overview and the export. */
export const claimFilterSchema = withServiceDateRange(z.object(claimFilterShape));
export type ClaimFilter = z.infer<typeof claimFilterSchema>;
export type ClaimFilterInput = z.input<typeof claimFilterSchema>;

export const claimListQuerySchema = withServiceDateRange(
  listQuerySchema(CLAIM_SORT_KEYS, 'serviceDate').extend({
    ...claimFilterShape,
    dir: z.enum(['asc', 'desc']).default('desc'),
  }),
);
export type ClaimListQuery = z.infer<typeof claimListQuerySchema>;
export type ClaimListQueryInput = z.input<typeof claimListQuerySchema>;

export const claimPageSchema = z.object({ items: z.array(claimRowSchema), ...cursorPageShape });
export type ClaimPage = z.infer<typeof claimPageSchema>;

export const claimExportQuerySchema = withServiceDateRange(
  z.object({
    ...claimFilterShape,
    sort: z.enum(CLAIM_SORT_KEYS).default('serviceDate'),
    dir: z.enum(['asc', 'desc']).default('desc'),
  }),
);
export type ClaimExportQuery = z.infer<typeof claimExportQuerySchema>;

/** An export larger than this asks the user to narrow the filters instead of building a huge file. */
export const CLAIM_EXPORT_MAX_ROWS = 50_000;
/** An exported claim: the row and the patient's MRN (masked as for the role), so the file re-imports. */
export const claimExportRowSchema = claimRowSchema.extend({ patientMrn: z.string() });
export type ClaimExportRow = z.infer<typeof claimExportRowSchema>;
export const claimExportSchema = z.object({ items: z.array(claimExportRowSchema) });
export type ClaimExport = z.infer<typeof claimExportSchema>;

/** The weekly trend covers the last 8 weeks, each starting on Sunday, ending with this week. */
export const TREND_WEEKS = 8;
/** The claims page shows the top 5 denial reasons. */
export const TOP_DENIAL_REASONS = 5;

/** A provider the claims can be filtered by (former providers too: their claims stay). */
export const claimProviderSchema = z.object({ id: z.number().int(), name: z.string() });
export type ClaimProvider = z.infer<typeof claimProviderSchema>;

/**
 * The Claims page's summary and charts for the current filters. A denied claim is one whose
 * first adjudication was a denial; CO-45 and PR-1/2/3 are adjustments, not denials.
 */
export const claimOverviewSchema = z.object({
  summary: z.object({
    /** Billed amount of the denied claims. */
    totalDeniedCents: z.number().int(),
    totalBilledCents: z.number().int(),
    claims: z.number().int(),
    deniedClaims: z.number().int(),
  }),
  /** Denied claims per payer, most first (payers with none are left out). */
  denialsByPayer: z.array(z.object({ payer: z.string(), count: z.number().int() })),
  topDenialReasons: z.array(z.object({ reason: z.string(), description: z.string(), count: z.number().int() })),
  /** Oldest week first; weeks with no claims are there with zeros. */
  weeklyTrend: z.array(
    z.object({
      /** The Sunday the week starts on, YYYY-MM-DD. */
      weekStart: z.string(),
      /** Claims with a service date in the week. */
      claims: z.number().int(),
      /** Of them, paid in full (status Paid or Closed). */
      paid: z.number().int(),
      /** Of them, denied at first adjudication. */
      denied: z.number().int(),
    }),
  ),
});
export type ClaimOverview = z.infer<typeof claimOverviewSchema>;

/** Statuses from which a claim can be appealed. */
export const APPEALABLE_STATUSES = ['Denied', 'Partially Paid'] as const satisfies readonly ClaimStatus[];
export function isAppealable(status: ClaimRowStatus): boolean {
  return (APPEALABLE_STATUSES as readonly ClaimRowStatus[]).includes(status);
}

/** Appeal levels: the payer's first and second internal reviews, then an external (independent) review. */
export const APPEAL_LEVELS = ['first', 'second', 'external'] as const;
export type AppealLevel = (typeof APPEAL_LEVELS)[number];
export const APPEAL_LEVEL_LABELS: Record<AppealLevel, string> = {
  first: 'First level',
  second: 'Second level',
  external: 'External review',
};

export const newAppealSchema = z
  .object({
    reason: z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
    note: z.string().trim().max(2000, 'must be at most 2000 characters').default(''),
    level: z.enum(APPEAL_LEVELS, { message: `must be one of: ${APPEAL_LEVELS.join(', ')}` }).default('first'),
    /** The last day the payer accepts this appeal (or owes its answer), YYYY-MM-DD; optional. */
    deadline: z
      .union([z.literal(''), isoDateSchema])
      .nullish()
      .transform((day) => day || null),
  })
  .strict();
export type NewAppeal = z.input<typeof newAppealSchema>;

/** Statuses from which a claim's balance can be written off: the payer has answered and will not pay the rest. */
export const WRITE_OFF_STATUSES = ['Denied', 'Partially Paid'] as const satisfies readonly ClaimStatus[];
export function canWriteOff(status: ClaimRowStatus): boolean {
  return (WRITE_OFF_STATUSES as readonly ClaimRowStatus[]).includes(status);
}

/** The body of a claim action taken with a reason (write off, correct, void): the reason, kept in the audit trail. */
const claimReasonBodySchema = z
  .object({ reason: z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters') })
  .strict();

/** `POST /api/claims/:id/write-off`: why the rest of a claim's balance is not pursued (kept in the audit trail). */
export const writeOffClaimSchema = claimReasonBodySchema;
export type WriteOffClaim = z.infer<typeof writeOffClaimSchema>;

/**
 * Statuses from which a claim can be corrected: the payer has it (accepted, pending, or answered), so a corrected
 * claim goes to it as a replacement (X12 CLM05-3 frequency 7) of its claim number. A Draft or Ready claim is simply
 * edited; a Submitted one waits for the payer's acknowledgement; an Appealed one for the appeal's outcome.
 */
export const CORRECTABLE_STATUSES = [
  'Accepted',
  'Pending',
  ...PAID_STATUSES,
  'Partially Paid',
  'Denied',
] as const satisfies readonly ClaimStatus[];
export function canCorrect(status: ClaimRowStatus): boolean {
  return (CORRECTABLE_STATUSES as readonly ClaimRowStatus[]).includes(status);
}

/** `POST /api/claims/:id/correct`: what is wrong with the claim the payer has (kept in the audit trail). */
export const correctClaimSchema = claimReasonBodySchema;
export type CorrectClaim = z.infer<typeof correctClaimSchema>;

/**
 * Statuses from which a claim can be voided at its payer (X12 CLM05-3 frequency 8 of its claim number): the payer
 * has it and has paid nothing on it. A paid claim is corrected instead, or its payment taken back by the payer; a
 * Draft or Ready claim the payer never had is voided here alone.
 */
export const VOIDABLE_AT_PAYER_STATUSES = ['Accepted', 'Pending', 'Denied'] as const satisfies readonly ClaimStatus[];
export function canVoidAtPayer(status: ClaimRowStatus): boolean {
  return (VOIDABLE_AT_PAYER_STATUSES as readonly ClaimRowStatus[]).includes(status);
}

/** `POST /api/claims/:id/void-at-payer`: why the payer is asked to cancel the claim (kept with it and audited). */
export const voidAtPayerSchema = claimReasonBodySchema;
export type VoidAtPayer = z.infer<typeof voidAtPayerSchema>;

/** `POST /api/claims/:id/void`: why a claim entered by mistake is voided (kept in the audit trail). */
export const voidClaimSchema = claimReasonBodySchema;
export type VoidClaim = z.infer<typeof voidClaimSchema>;

/** How an appeal ended: won (paid in full of what was asked), partly won, or lost (upheld denial). */
export const APPEAL_OUTCOMES = ['won', 'partial', 'lost'] as const;
export type AppealOutcome = (typeof APPEAL_OUTCOMES)[number];
export const APPEAL_OUTCOME_LABELS: Record<AppealOutcome, string> = {
  won: 'Won',
  partial: 'Partly won',
  lost: 'Lost',
};

export const appealOutcomeRequestSchema = z
  .object({
    outcome: z.enum(APPEAL_OUTCOMES, { message: `must be one of: ${APPEAL_OUTCOMES.join(', ')}` }),
    /** What the payer pays on the appeal, in cents; 0 for a lost appeal. */
    amountCents: z
      .number({ message: 'must be an amount in cents' })
      .int('must be an amount in cents')
      .min(0, 'must be 0 or more')
      .max(100_000_000, 'must be at most 1,000,000.00'),
  })
  .strict()
  .superRefine((value, ctx) => {
    if (value.outcome === 'lost' && value.amountCents !== 0)
      ctx.addIssue({ code: 'custom', path: ['amountCents'], message: 'must be 0 for a lost appeal' });
    if (value.outcome !== 'lost' && value.amountCents === 0)
      ctx.addIssue({ code: 'custom', path: ['amountCents'], message: 'must be more than 0.00 for a won appeal' });
  });
export type AppealOutcomeRequest = z.infer<typeof appealOutcomeRequestSchema>;

/** One appeal in a claim's history, oldest first. */
export const claimAppealSchema = z.object({
  id: z.number().int(),
  level: z.enum(APPEAL_LEVELS),
  reason: z.string(),
  note: z.string(),
  deadline: z.string().nullable(),
  filedAt: z.string(),
  filedBy: z.string().nullable(),
  outcome: z.enum(APPEAL_OUTCOMES).nullable(),
  outcomeAmountCents: z.number().int().nullable(),
  decidedOn: z.string().nullable(),
});
export type ClaimAppeal = z.infer<typeof claimAppealSchema>;

/** One service line of a claim as the claim view shows it. */
export const claimLineSchema = z.object({
  lineNumber: z.number().int(),
  procedureCode: z.string(),
  /** The practice's words for the code, or null for a code outside its list. */
  description: z.string().nullable(),
  modifiers: z.array(z.string()),
  units: z.number().int(),
  chargeCents: z.number().int(),
  diagnosisPointers: z.array(z.number().int()),
  serviceDate: z.string(),
  lineControlNumber: z.string(),
});
export type ClaimLine = z.infer<typeof claimLineSchema>;

/** The policy a claim is billed to, as the payer knows the patient (member id masked as the MRN is). */
export const claimCoverageSchema = z.object({
  id: z.number().int(),
  payer: z.string(),
  priority: z.number().int(),
  memberId: z.string(),
  groupNumber: z.string().nullable(),
  relationship: z.string(),
  subscriberName: z.string().nullable(),
  effectiveOn: z.string(),
  endOn: z.string().nullable(),
  /** The policy's latest eligibility check (X12 271) for the claim's service date; absent where not read. */
  eligibility: eligibilityBriefSchema.optional(),
});

/** One event of a claim's history, newest last. */
export const claimHistoryEventSchema = z.object({
  at: z.string(),
  kind: z.enum(['lifecycle', 'scrub', 'appeal', 'change', 'submission']),
  title: z.string(),
  detail: z.string(),
  by: z.string().nullable(),
  /** The scrubber's findings, on a scrub event. */
  edits: z.array(scrubEditSchema),
});
export type ClaimHistoryEvent = z.infer<typeof claimHistoryEventSchema>;

/**
 * One sending of the claim in an 837P batch and what came back (docs/x12-837.md): its filing history, oldest
 * first. A rejected submission stays listed but does not count as filed.
 */
export const claimSubmissionSchema = z.object({
  batchId: z.number().int(),
  sentAt: z.string(),
  payer: z.string(),
  /** Null while no answer has come. */
  outcome: z.enum(['Accepted', 'Rejected']).nullable(),
  /** '999' (the clearinghouse, for the whole file) or '277CA' (for this claim). */
  answeredBy: z.string().nullable(),
  answeredAt: z.string().nullable(),
  /** STC01 ('A7:562:85') or the 999's IK5/AK9 code. */
  code: z.string().nullable(),
  /** The reason in words, with the payer's free text. */
  message: z.string().nullable(),
  /** The payer's claim number (277CA REF*1K), which a replacement or void quotes. */
  payerClaimNumber: z.string().nullable(),
  /** A 277CA's 'received' or 'forwarded' note while no answer has come. */
  note: z.string().nullable(),
});
export type ClaimSubmission = z.infer<typeof claimSubmissionSchema>;

/** `GET /api/claims/:id`: header, coverage, diagnoses, lines and history of one claim. */
/** Another claim of the same visit: the one billed to an earlier policy, or one billed to a later policy. */
export const claimLinkSchema = z.object({ id: z.number().int(), accountNumber: z.string(), payer: z.string() });
export type ClaimLink = z.infer<typeof claimLinkSchema>;

/** The patient's next policy after the one a claim billed, and whether the claim's balance can be billed to it now. */
export const claimNextPolicySchema = z.object({
  payer: z.string(),
  billable: z.boolean(),
  /** Why not yet, naming the rule (e.g. the payer has not adjudicated the claim); null when billable. */
  reason: z.string().nullable(),
});
export type ClaimNextPolicy = z.infer<typeof claimNextPolicySchema>;

export const claimDetailSchema = z.object({
  id: z.number().int(),
  /** The patient control number (X12 CLM01). */
  accountNumber: z.string(),
  status: claimRowStatusSchema,
  patient: z.object({ id: z.number().int(), name: z.string(), mrn: z.string(), dob: z.string() }),
  provider: z.object({ id: z.number().int(), name: z.string(), npi: z.string().nullable() }),
  payer: z.string(),
  coverage: claimCoverageSchema.nullable(),
  placeOfService: z.string(),
  frequencyCode: z.string(),
  originalClaimNumber: z.string().nullable(),
  /** Who referred the patient for the service (X12 loop 2310A), when someone did. */
  referringProvider: z.object({ name: z.string(), npi: z.string() }).nullable(),
  serviceDate: z.string(),
  submittedOn: z.string().nullable(),
  adjudicatedOn: z.string().nullable(),
  resolvedOn: z.string().nullable(),
  billedCents: z.number().int(),
  paidCents: z.number().int(),
  contractualAdjustmentCents: z.number().int(),
  patientResponsibilityCents: z.number().int(),
  balanceCents: z.number().int(),
  /** The part of the balance the patient's next policy was billed for (laterClaims): that payer's now, 0 otherwise. */
  handedOnCents: z.number().int(),
  /** On a claim billed after another's adjudication: what the earlier payers settled of its charge, 0 otherwise. */
  priorPayersCents: z.number().int(),
  reason: z.string().nullable(),
  denialDescription: z.string().nullable(),
  /** ICD-10-CM codes in order, the first the principal one. */
  diagnoses: z.array(z.string()),
  lines: z.array(claimLineSchema),
  /** The latest scrub's findings, or null before the first scrub. */
  lastScrub: z.object({ at: z.string(), clean: z.boolean(), edits: z.array(scrubEditSchema) }).nullable(),
  /** Each time the claim was sent in a batch, oldest first. */
  submissions: z.array(claimSubmissionSchema),
  history: z.array(claimHistoryEventSchema),
  /** The claim of the earlier policy this one bills after (a secondary claim's primary), if any. */
  primaryClaim: claimLinkSchema.nullable(),
  /** Claims of the patient's later policies billed after this one (not voided). */
  laterClaims: z.array(claimLinkSchema),
  /** The patient's next policy in force on the service date, after the one billed; null when there is none. */
  nextPolicy: claimNextPolicySchema.nullable(),
});
export type ClaimDetail = z.infer<typeof claimDetailSchema>;

// ---------------------------------------------------------------------------------------------
// Draft claims entered by hand (the claim form): the same schema checks the form in the browser and the
// body on the server; what needs the database (patient, provider, coverage, the practice's today) the
// server adds. The scrubber then checks the claim as a payer would.

/** CPT (5 digits, or 4 and F/T/U for category II/III) or HCPCS level II (a letter A–V and 4 digits). */
const billableCodeSchema = z
  .string()
  .trim()
  .min(1, 'is required')
  .transform((code) => code.toUpperCase())
  .pipe(
    z
      .string()
      .regex(/^(\d{4}[0-9FTU]|[A-V]\d{4})$/, 'must be a CPT code (such as 99213) or a HCPCS code (such as G0439)'),
  );

/** An ICD-10-CM code as written on a claim: letter, digit, letter or digit, then up to 4 more after a dot. */
export const icd10CodeSchema = z
  .string()
  .trim()
  .min(1, 'is required')
  .transform((code) => code.toUpperCase())
  .pipe(z.string().regex(/^[A-Z]\d[0-9A-Z](\.[0-9A-Z]{1,4})?$/, 'must be an ICD-10-CM code such as E11.9 or J45.909'));

export const claimLineInputSchema = z
  .object({
    procedureCode: billableCodeSchema,
    modifiers: z
      .array(
        z
          .string()
          .trim()
          .transform((m) => m.toUpperCase())
          .pipe(z.string().regex(/^[A-Z0-9]{2}$/, 'must be 2 letters or digits')),
      )
      .max(4, 'may hold at most 4 modifiers')
      .default([]),
    units: z
      .number({ error: 'must be a whole number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(999, 'must be at most 999'),
    chargeCents: z
      .number({ error: 'must be an amount' })
      .int('must be whole cents')
      .min(1, 'must be more than $0.00')
      .max(10_000_000, 'must be at most $100,000.00'),
    /** 1-based positions in the claim's diagnoses. */
    diagnosisPointers: z
      .array(z.number().int().min(1, 'must point at a diagnosis (1-12)').max(12, 'must point at a diagnosis (1-12)'))
      .min(1, 'must point at 1 to 4 of the claim’s diagnoses')
      .max(4, 'must point at 1 to 4 of the claim’s diagnoses')
      .refine((p) => new Set(p).size === p.length, 'must not point at one diagnosis twice'),
    serviceDate: isoDateSchema,
  })
  .strict();
export type ClaimLineInput = z.infer<typeof claimLineInputSchema>;

/** `POST /api/claims` and `PUT /api/claims/:id` (a Draft claim): the claim form. */
/** A referring provider as a claim names one: a person's name and a valid NPI (CMS NPI standard, Luhn check digit). */
const referringProviderSchema = z
  .object({
    name: z.string().trim().min(1, 'is required').max(120, 'must be at most 120 characters'),
    npi: z.string().trim().pipe(npiValueSchema),
  })
  .strict();

export const claimDraftSchema = z
  .object({
    patientId: bodyIdSchema,
    /** The rendering provider. */
    providerId: bodyIdSchema,
    /** The patient's policy billed; null bills the patient (self-pay). */
    coverageId: bodyIdSchema.nullable(),
    placeOfService: z
      .string()
      .trim()
      .regex(/^\d{2}$/, 'must be a 2-digit place-of-service code such as 11')
      .default('11'),
    frequencyCode: claimFrequencySchema.default('1'),
    originalClaimNumber: z.string().trim().max(50, 'must be at most 50 characters').nullable().default(null),
    /** Who referred the patient for the service (X12 loop 2310A), when someone did. */
    referringProvider: referringProviderSchema.nullable().default(null),
    diagnoses: z
      .array(icd10CodeSchema)
      .min(1, 'must hold at least one diagnosis')
      .max(12, 'may hold at most 12 diagnoses (X12 837P HI)')
      .refine((d) => new Set(d.map((c) => c.replace('.', ''))).size === d.length, 'must not list a diagnosis twice'),
    lines: z.array(claimLineInputSchema).min(1, 'must hold at least one line').max(50, 'may hold at most 50 lines'),
  })
  .strict()
  .superRefine((claim, ctx) => {
    if (claim.frequencyCode !== '1' && !claim.originalClaimNumber) {
      ctx.addIssue({
        code: 'custom',
        path: ['originalClaimNumber'],
        message: "is required for a replacement or void: the payer's number of the claim it replaces",
      });
    }
    claim.lines.forEach((line, i) => {
      line.diagnosisPointers.forEach((pointer, j) => {
        if (pointer > claim.diagnoses.length) {
          ctx.addIssue({
            code: 'custom',
            path: ['lines', i, 'diagnosisPointers', j],
            message: `must point at one of the claim's ${claim.diagnoses.length} diagnoses`,
          });
        }
      });
    });
  });
export type ClaimDraft = z.infer<typeof claimDraftSchema>;
export type ClaimDraftInput = z.input<typeof claimDraftSchema>;

// ---------------------------------------------------------------------------------------------
// CSV import (Upload File). Every row is checked with this schema; the server adds the
// checks that need the database (known MRN, provider and payer, account number not taken, the payer's
// timely-filing limit).

export const CLAIM_IMPORT_COLUMNS = [
  'accountNumber',
  'patientMrn',
  'procedureCode',
  'provider',
  'payer',
  'serviceDate',
  'billedAmount',
  'status',
  'reasonCode',
] as const;
export type ClaimImportColumn = (typeof CLAIM_IMPORT_COLUMNS)[number];
/**
 * Columns the export adds for the reader after the import's own: what the payer answered and the figures
 * computed from it. The import accepts them and ignores them, so an exported file imports as it is.
 */
export const CLAIM_EXPORT_ONLY_COLUMNS = [
  'patient',
  'paidAmount',
  'balanceAmount',
  'daysAR',
  'denialDescription',
] as const;

const cents = (value: number) => (value / 100).toFixed(2);

/**
 * The Claims CSV: the import's columns under the import's names (the file re-imports), then the export-only
 * ones. Dates are YYYY-MM-DD and amounts plain dollars (149.00), as the import reads them.
 */
export const CLAIM_CSV_COLUMNS: readonly {
  header: ClaimImportColumn | (typeof CLAIM_EXPORT_ONLY_COLUMNS)[number];
  value: (claim: ClaimExportRow) => string | number | null;
}[] = [
  { header: 'accountNumber', value: (c) => c.accountNumber },
  { header: 'patientMrn', value: (c) => c.patientMrn },
  { header: 'procedureCode', value: (c) => c.procedure },
  { header: 'provider', value: (c) => c.provider },
  { header: 'payer', value: (c) => c.payer },
  { header: 'serviceDate', value: (c) => c.serviceDate },
  { header: 'billedAmount', value: (c) => cents(c.billedCents) },
  { header: 'status', value: (c) => c.status },
  { header: 'reasonCode', value: (c) => c.reason },
  { header: 'patient', value: (c) => c.patient },
  { header: 'paidAmount', value: (c) => cents(c.paidCents) },
  { header: 'balanceAmount', value: (c) => cents(c.balanceCents) },
  { header: 'daysAR', value: (c) => c.daysAR },
  { header: 'denialDescription', value: (c) => c.denialDescription },
];

/** Columns a file may leave out (their defaults apply). */
export const OPTIONAL_IMPORT_COLUMNS: readonly ClaimImportColumn[] = ['status', 'reasonCode'];

/** An imported claim starts before payment: a paid claim comes with a remittance, which a file does not carry. */
export const IMPORT_STATUSES = ['Draft', 'Submitted', 'Pending', 'Denied'] as const satisfies readonly ClaimStatus[];
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
/** The ceiling of a procedure code without its own (charge_ceilings): above it an imported charge is flagged. */
export const DEFAULT_CHARGE_CEILING_CENTS = 500_000;

/** A CPT or HCPCS code as the import and the charge ceilings take it. */
export const procedureCodeSchema = z
  .string()
  .trim()
  .min(1, 'is required')
  .transform((code) => code.toUpperCase())
  .pipe(z.string().regex(/^(\d{4}[0-9A-Z]|[A-Z]\d{4})$/, 'must be a CPT or HCPCS code such as 99213 or G0439'));

/** Settings → Charge ceilings (admin): the charge above which an imported claim is flagged, per code. */
export const chargeCeilingSchema = z.object({ procedureCode: z.string(), ceilingCents: z.number().int() });
export type ChargeCeiling = z.infer<typeof chargeCeilingSchema>;
export const chargeCeilingListSchema = z.object({
  items: z.array(chargeCeilingSchema),
  /** What a code without its own ceiling uses. */
  defaultCeilingCents: z.number().int(),
});
export type ChargeCeilingList = z.infer<typeof chargeCeilingListSchema>;
export const chargeCeilingParamsSchema = z.object({ code: procedureCodeSchema });
export const chargeCeilingUpdateSchema = z
  .object({
    ceilingCents: z
      .number({ error: 'must be an amount in cents' })
      .int('must be whole cents')
      .min(1, 'must be more than 0.00')
      .max(100_000_000, 'must be at most 1,000,000.00'),
  })
  .strict();
export type ChargeCeilingUpdate = z.infer<typeof chargeCeilingUpdateSchema>;
export const CLAIM_IMPORT_MAX_ROWS = 10_000;
/** A 5 MB file holds about 50,000 rows; the route's body limit. */
export const CLAIM_IMPORT_MAX_BYTES = 5 * 1024 * 1024;

const requiredText = (max: number) =>
  z.string().trim().min(1, 'is required').max(max, `must be at most ${max} characters`);

/** Each column's own check; a file's row is checked column by column, so every bad field is reported at once. */
export const claimImportFieldsSchema = z.object({
  accountNumber: requiredText(40).regex(/^[A-Za-z0-9-]+$/, 'may contain only letters, digits and -'),
  patientMrn: requiredText(40),
  procedureCode: procedureCodeSchema,
  provider: requiredText(200),
  // Checked against the practice's payers (Settings → Payers) by the server.
  payer: requiredText(80),
  serviceDate: z.string().trim().min(1, 'is required').pipe(isoDateSchema),
  billedAmount: z
    .string()
    .trim()
    .min(1, 'is required')
    .transform((text, ctx) => {
      const cents = dollarsToCents(text);
      if (cents === null) {
        ctx.addIssue({ code: 'custom', message: 'must be an amount in dollars such as 149.00' });
        return z.NEVER;
      }
      return cents;
    })
    .pipe(z.number().int().min(1, 'must be more than 0.00').max(100_000_000, 'must be at most 1,000,000.00')),
  status: z
    .string()
    .trim()
    .transform((s) => (s === '' ? 'Submitted' : s))
    .pipe(z.enum(IMPORT_STATUSES, { message: `must be one of: ${IMPORT_STATUSES.join(', ')} (default Submitted)` })),
  reasonCode: z
    .string()
    .trim()
    .transform((text) => text.toUpperCase().replace(/^([A-Z]{2})[\s_-]*/, '$1-'))
    .pipe(z.union([z.literal(''), reasonCodeSchema])),
});

/** What is wrong with a row's reason code given its status (both already valid on their own), or null. */
export function reasonCodeProblem(status: ImportStatus, reasonCode: string): string | null {
  if (status === 'Denied' && reasonCode === '') return 'is required for a denied claim';
  if (status === 'Denied' && (NON_DENIAL_CODES as readonly string[]).includes(reasonCode)) {
    return `${reasonCode} is an adjustment, not a denial reason`;
  }
  if (status !== 'Denied' && reasonCode !== '') return 'is only given for a denied claim';
  return null;
}

export const claimImportRowSchema = claimImportFieldsSchema.superRefine((row, ctx) => {
  const problem = reasonCodeProblem(row.status, row.reasonCode);
  if (problem) ctx.addIssue({ code: 'custom', path: ['reasonCode'], message: problem });
});
export type ClaimImportRow = z.output<typeof claimImportRowSchema>;

export const claimImportRequestSchema = z.object({
  csv: z.string().min(1, 'is required: choose a CSV file').max(CLAIM_IMPORT_MAX_BYTES, 'must be at most 5 MB'),
});

/** One problem in the file. `row` is the spreadsheet row: the header is row 1, the first claim row 2. */
export const importErrorSchema = z.object({ row: z.number().int(), field: z.string(), message: z.string() });
export type ImportError = z.infer<typeof importErrorSchema>;
/** At most this many problems are reported; `errorCount` says how many there were. */
export const IMPORT_ERRORS_SHOWN = 500;

export const importRejectedSchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
  errors: z.array(importErrorSchema),
  errorCount: z.number().int(),
  /** Charges above their code's ceiling: not refused, shown so they are checked while the file is fixed. */
  warnings: z.array(importErrorSchema),
});
export type ImportRejected = z.infer<typeof importRejectedSchema>;

export const importResultSchema = z.object({
  imported: z.number().int(),
  /**
   * Rows imported but worth a second look (a charge above its code's ceiling): the claim is in, and can be
   * voided from the Claims list if it was a mistake.
   */
  warnings: z.array(importErrorSchema),
});
export type ImportResult = z.infer<typeof importResultSchema>;

/** Who paid: the payer (a remittance), the patient (the portal) or a guest paying a statement. */
export const PAYMENT_SOURCES = ['payer', 'patient', 'guest'] as const;
export const paymentSourceSchema = z.enum(PAYMENT_SOURCES);
export type PaymentSource = z.infer<typeof paymentSourceSchema>;
