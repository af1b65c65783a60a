import { z } from 'zod';

/** One requirement of the fixed traceability list. */
export const requirementSchema = z.object({
  /** 'R 001' … 'R 020'. */
  reqId: z.string().regex(/^R \d{3}$/),
  description: z.string(),
  designModule: z.string(),
  testId: z.string(),
  kpiMetric: z.string(),
});
export type Requirement = z.infer<typeof requirementSchema>;

export const requirementListSchema = z.array(requirementSchema);

export const reqIdParamsSchema = z.object({ reqId: z.string().regex(/^R \d{3}$/, 'must look like R 001') });

/**
 * The result of verifying one requirement against the live system: whether it holds, the
 * measured value shown as the badge ('PASS', '100%', '0', '15 min' …) and what was checked.
 */
export const verificationSchema = z.object({
  reqId: z.string(),
  testId: z.string(),
  passed: z.boolean(),
  result: z.string(),
  detail: z.string(),
});
export type Verification = z.infer<typeof verificationSchema>;
