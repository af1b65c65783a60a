import { z } from 'zod';
import { MAX_ROW_ID } from '@/shared/api';

/**
 * Claim batches: Ready claims sent to a payer as one ASC X12 837P (005010X222A1) file, and the
 * acknowledgements that come back for them — the 999 (005010X231A1) for the file, the 277CA (005010X214) for
 * each claim. See docs/x12-837.md.
 */

/**
 * A batch's life: Submitted when created (its claims are Submitted), then what the 999 says of its transaction
 * sets: all accepted (with or without errors noted), some of them rejected, or all rejected.
 */
export const CLAIM_BATCH_STATUSES = ['Submitted', 'Accepted', 'Partially Accepted', 'Rejected'] as const;
export type ClaimBatchStatus = (typeof CLAIM_BATCH_STATUSES)[number];

/** At most this many claims go in one batch (the bench's 10,000 and a margin). */
export const MAX_CLAIMS_PER_BATCH = 20_000;

/** An acknowledgement file may be this large (a 277CA for a 20,000-claim batch is about 5 MB). */
export const ACKNOWLEDGEMENT_MAX_BYTES = 10 * 1024 * 1024;

/**
 * `POST /api/claim-batches`: every Ready claim of one payer, or the chosen Ready claims. Chosen claims of several
 * payers make one batch per payer (each file goes to one payer's claims, as the payer's acknowledgements answer
 * it), all in one transaction.
 */
export const newClaimBatchSchema = z
  .object({
    payer: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters').optional(),
    claimIds: z
      .array(
        z
          .number({ error: 'must be a claim id' })
          .int('must be a claim id')
          .positive('must be a claim id')
          .max(MAX_ROW_ID, 'is not a known claim id'),
      )
      .min(1, 'must name at least one claim')
      .max(MAX_CLAIMS_PER_BATCH, `may name at most ${MAX_CLAIMS_PER_BATCH.toLocaleString('en-US')} claims`)
      .refine((ids) => new Set(ids).size === ids.length, 'must not name a claim twice')
      .optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if ((body.payer === undefined) === (body.claimIds === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [body.payer === undefined ? 'payer' : 'claimIds'],
        message:
          body.payer === undefined
            ? 'is required: name a payer (all its Ready claims) or give claimIds'
            : 'must not be given with payer: send one or the other',
      });
    }
  });
export type NewClaimBatch = z.infer<typeof newClaimBatchSchema>;

/** One error a 999 reported (IK3 segment and IK4 element notes, IK5/AK9 codes), in words. */
export const acknowledgementErrorSchema = z.object({
  /** The transaction set it is about (ST02), or null for the whole group. */
  setControlNumber: z.string().nullable(),
  /** e.g. 'IK3', 'IK4', 'IK5', 'AK9'. */
  segment: z.string(),
  /** The X12 error code as sent, e.g. '8', 'I12'. */
  code: z.string(),
  message: z.string(),
});
export type AcknowledgementError = z.infer<typeof acknowledgementErrorSchema>;

/** A batch as the Batches view lists it. Money is integer cents. */
export const claimBatchSchema = z.object({
  id: z.number().int(),
  payer: z.string(),
  payerId: z.string(),
  status: z.enum(CLAIM_BATCH_STATUSES),
  claimCount: z.number().int(),
  totalCents: z.number().int(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  /** ISA13 and GS06, for matching the clearinghouse's answers by eye. */
  interchangeControlNumber: z.number().int(),
  groupControlNumber: z.number().int(),
  /** The name the 837 file downloads under. */
  fileName: z.string(),
  /** When the 999 came, and what it said (IK5/AK9 code: A, E, P, R…); null before. */
  acknowledgedAt: z.string().nullable(),
  acknowledgementCode: z.string().nullable(),
  errors: z.array(acknowledgementErrorSchema),
  /** Claims the 277CA (or a 999 rejection) has answered so far. */
  acceptedClaims: z.number().int(),
  rejectedClaims: z.number().int(),
});
export type ClaimBatch = z.infer<typeof claimBatchSchema>;

export const claimBatchListSchema = z.object({ items: z.array(claimBatchSchema) });
export type ClaimBatchList = z.infer<typeof claimBatchListSchema>;

/** `POST /api/claim-batches`: the batches made (one per payer). */
export const createdClaimBatchesSchema = z.object({ batches: z.array(claimBatchSchema) });
export type CreatedClaimBatches = z.infer<typeof createdClaimBatchesSchema>;

/** A payer with Ready claims waiting to be sent (`GET /api/claim-batches/ready`). */
export const readyPayerSchema = z.object({
  payer: z.string(),
  /** The electronic payer id; null when the payer has none yet (its claims cannot be sent until it does). */
  payerId: z.string().nullable(),
  claims: z.number().int(),
  totalCents: z.number().int(),
});
export type ReadyPayer = z.infer<typeof readyPayerSchema>;
export const readyPayerListSchema = z.object({ items: z.array(readyPayerSchema) });

export const CLAIM_OUTCOMES = ['Accepted', 'Rejected'] as const;

/** One claim of a batch and what was answered for it. */
export const claimBatchClaimSchema = z.object({
  claimId: z.number().int(),
  accountNumber: z.string(),
  patient: z.string(),
  billedCents: z.number().int(),
  /** The claim's status now (it moves on after the batch). */
  status: z.string(),
  outcome: z.enum(CLAIM_OUTCOMES).nullable(),
  /** '999' or '277CA'. */
  answeredBy: z.string().nullable(),
  code: z.string().nullable(),
  message: z.string().nullable(),
});
export type ClaimBatchClaim = z.infer<typeof claimBatchClaimSchema>;

/** `GET /api/claim-batches/:id`: the batch and its claims in file order. */
export const claimBatchDetailSchema = claimBatchSchema.extend({ claims: z.array(claimBatchClaimSchema) });
export type ClaimBatchDetail = z.infer<typeof claimBatchDetailSchema>;

/** `POST /api/acknowledgements`: what a 999 or 277CA changed. */
export const acknowledgementResultSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['999', '277CA']),
  /** One line for the toast: 'Batch 12 rejected: 2 errors' or '3 claims accepted, 1 rejected'. */
  summary: z.string(),
  batches: z.array(z.object({ id: z.number().int(), status: z.enum(CLAIM_BATCH_STATUSES) })),
  accepted: z.number().int(),
  rejected: z.number().int(),
  /** Claims the 277CA only noted as received or forwarded (A0, A1): still awaiting the payer. */
  noted: z.number().int(),
});
export type AcknowledgementResult = z.infer<typeof acknowledgementResultSchema>;

/** The 837's download name: the batch and its interchange control number, e.g. `837P-batch-12-000000045.txt`. */
export function batchFileName(batchId: number, interchangeControlNumber: number): string {
  return `837P-batch-${batchId}-${String(interchangeControlNumber).padStart(9, '0')}.txt`;
}

// ---------------------------------------------------------------------------------------------
// Claim status: the 276 request and the 277 response (ASC X12 005010X212, docs/x12-claim-status.md)

/** `POST /api/claims/status-requests`: without claimIds, the rule (each payer's days); with them, those claims now. */
export const newClaimStatusRequestSchema = z
  .object({
    claimIds: z
      .array(
        z
          .number({ error: 'must be a claim id' })
          .int('must be a claim id')
          .positive('must be a claim id')
          .max(MAX_ROW_ID, 'is not a known claim id'),
      )
      .min(1, 'must name at least one claim')
      .max(MAX_CLAIMS_PER_BATCH, `may name at most ${MAX_CLAIMS_PER_BATCH.toLocaleString('en-US')} claims`)
      .refine((ids) => new Set(ids).size === ids.length, 'must not name a claim twice')
      .optional(),
  })
  .strict();
export type NewClaimStatusRequest = z.infer<typeof newClaimStatusRequestSchema>;

/** What asking did: one 276 per payer (a 276's information source loop names one payer). */
export const claimStatusRequestResultSchema = z.object({
  /** The first request made (the only one when the claims have one payer); null when no claim was due. */
  requestId: z.number().int().nullable(),
  requestIds: z.array(z.number().int()),
  /** Claims asked about. */
  claims: z.number().int(),
});
export type ClaimStatusRequestResult = z.infer<typeof claimStatusRequestResultSchema>;

/** A 276 as the status requests list shows it. */
export const claimStatusRequestSchema = z.object({
  id: z.number().int(),
  payer: z.string(),
  createdAt: z.string(),
  /** Null when the scheduled rule asked. */
  createdBy: z.string().nullable(),
  claimCount: z.number().int(),
  /** Claims whose 277 answer has come. */
  answeredClaims: z.number().int(),
  interchangeControlNumber: z.number().int(),
  fileName: z.string(),
  /** When the mailbox put it in the clearinghouse's mailbox; null while it waits. */
  mailedAt: z.string().nullable(),
});
export type ClaimStatusRequest = z.infer<typeof claimStatusRequestSchema>;
export const claimStatusRequestListSchema = z.object({ items: z.array(claimStatusRequestSchema) });
export type ClaimStatusRequestList = z.infer<typeof claimStatusRequestListSchema>;

/** `POST /api/claims/status-responses`: what a 277 changed. */
export const claimStatusResponseResultSchema = z.object({
  responseId: z.number().int(),
  /** Claims answered. */
  answered: z.number().int(),
  /** Of them, those a person must act on (a work item each). */
  needsAction: z.number().int(),
  /** One line for the toast: '3 claims answered: 1 accepted, 1 pending, 1 rejected back to Draft'. */
  summary: z.string(),
});
export type ClaimStatusResponseResult = z.infer<typeof claimStatusResponseResultSchema>;

/** A claim's latest status inquiry and the payer's answer, as the claim's view shows it. */
export const claimStatusAnswerSchema = z.object({
  askedAt: z.string(),
  answeredAt: z.string().nullable(),
  /** STC01-1 and -2, e.g. F1 and 65; null before the answer. */
  categoryCode: z.string().nullable(),
  statusCode: z.string().nullable(),
  /** The status in plain words. */
  message: z.string().nullable(),
  effectiveOn: z.string().nullable(),
  needsAction: z.boolean().nullable(),
});
export type ClaimStatusAnswer = z.infer<typeof claimStatusAnswerSchema>;

/** `GET /api/claims/:id/status`: the latest answer, and whether the payer can be asked now. */
export const claimStatusViewSchema = z.object({
  latest: claimStatusAnswerSchema.nullable(),
  /** The claim was sent and is awaiting the payer's decision (Submitted, Accepted or Pending). */
  askable: z.boolean(),
});
export type ClaimStatusView = z.infer<typeof claimStatusViewSchema>;

/** The 276's download name, e.g. `276-request-4-000000046.txt`. */
export function statusRequestFileName(requestId: number, interchangeControlNumber: number): string {
  return `276-request-${requestId}-${String(interchangeControlNumber).padStart(9, '0')}.txt`;
}

/**
 * Whether X12 text is a 277 claim status response (GS08 005010X212) rather than a 999 or 277CA: the upload sends it
 * to the claim status route. Reads only the GS segments, with the delimiters ISA gives.
 */
export function isClaimStatusResponse(text: string): boolean {
  const start = text.indexOf('ISA');
  if (start < 0 || text.length < start + 106) return false;
  const element = text.charAt(start + 3);
  const segment = text.charAt(start + 105);
  return text
    .split(segment)
    .map((s) => s.trim())
    .some((s) => s.startsWith(`GS${element}`) && (s.split(element)[8] ?? '').startsWith('005010X212'));
}
