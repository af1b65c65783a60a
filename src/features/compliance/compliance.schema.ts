import { z } from 'zod';
import { PERMISSIONS, ROLES, SCREENS, type Permission, type ScreenPath } from '@/shared/access';
import { isoDateSchema } from '@/shared/api';

export const SAFEGUARDS = ['Administrative', 'Physical', 'Technical'] as const;
export const GAP_STATUSES = ['Open', 'In Progress', 'Closed'] as const;
export const GAP_SEVERITIES = ['High', 'Medium', 'Low'] as const;
export const HIPAA_ITEM_STATUSES = ['Compliant', 'Partial', 'Not compliant'] as const;
export const WCAG_LEVELS = ['A', 'AA'] as const;
export const WCAG_STATUSES = ['Pass', 'Partial', 'Fail'] as const;

export const safeguardSchema = z.enum(SAFEGUARDS);
export const gapStatusSchema = z.enum(GAP_STATUSES);
export type GapStatus = z.infer<typeof gapStatusSchema>;
export const hipaaItemStatusSchema = z.enum(HIPAA_ITEM_STATUSES);
export type HipaaItemStatus = z.infer<typeof hipaaItemStatusSchema>;

const roleSchema = z.enum(ROLES);
const screenPathSchema = z.enum(SCREENS.map((s) => s.path) as [ScreenPath, ...ScreenPath[]]);
const permissionSchema = z.enum(PERMISSIONS as [Permission, ...Permission[]]);

// ----- Overview: generated from the live policy and data ------------------------------------------

export const complianceOverviewSchema = z.object({
  rbac: z.object({
    /** protectedRoutes / apiRoutes, as a percentage with one decimal. */
    percent: z.number(),
    /** Registered API routes (method + path) and how many of them need a session and a permission. */
    apiRoutes: z.number().int(),
    protectedRoutes: z.number().int(),
    /** The API routes that answer without a session (sign-in flow, health). */
    publicRoutes: z.array(z.string()),
    /** Screens × roles: every cell is decided by the policy, allowed or denied. */
    screenCells: z.object({ total: z.number().int(), allowed: z.number().int(), denied: z.number().int() }),
  }),
  mfa: z.object({
    /** 'one-time code' in demo mode (shown on screen), 'authenticator app' (TOTP) otherwise. */
    secondFactor: z.enum(['one-time code', 'authenticator app']),
    roles: z.array(
      z.object({
        role: roleSchema,
        required: z.boolean(),
        activeAccounts: z.number().int(),
        /** Active accounts of the role that can complete the second step (TOTP enrolled, or demo code). */
        enrolledAccounts: z.number().int(),
      }),
    ),
  }),
  audit: z.object({ events: z.number().int() }),
  matrix: z.object({
    screens: z.array(z.object({ path: screenPathSchema, label: z.string() })),
    roles: z.array(
      z.object({ role: roleSchema, screens: z.array(screenPathSchema), permissions: z.array(permissionSchema) }),
    ),
  }),
});
export type ComplianceOverview = z.infer<typeof complianceOverviewSchema>;

// ----- Programme data: HIPAA mock audit, WCAG checklist, gaps -------------------------------------

export const hipaaItemSchema = z.object({
  id: z.number().int(),
  reference: z.string(),
  safeguard: safeguardSchema,
  requirement: z.string(),
  status: hipaaItemStatusSchema,
  evidence: z.string(),
});
export type HipaaItem = z.infer<typeof hipaaItemSchema>;
export const hipaaItemsResponseSchema = z.object({ items: z.array(hipaaItemSchema) });

export const wcagCheckSchema = z.object({
  id: z.number().int(),
  criterion: z.string(),
  title: z.string(),
  level: z.enum(WCAG_LEVELS),
  status: z.enum(WCAG_STATUSES),
  note: z.string(),
});
export type WcagCheck = z.infer<typeof wcagCheckSchema>;
export const wcagChecksResponseSchema = z.object({ checks: z.array(wcagCheckSchema) });

export const complianceGapSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  safeguard: safeguardSchema,
  severity: z.enum(GAP_SEVERITIES),
  status: gapStatusSchema,
  dueDate: isoDateSchema,
  owner: z.string(),
});
export type ComplianceGap = z.infer<typeof complianceGapSchema>;

export const scoreSchema = z.object({
  /** earned / possible × 100, one decimal. */
  percent: z.number(),
  earned: z.number(),
  possible: z.number().int(),
});
export type Score = z.infer<typeof scoreSchema>;

export const complianceScoresSchema = z.object({ overall: scoreSchema, technical: scoreSchema });
export type ComplianceScores = z.infer<typeof complianceScoresSchema>;

/** How the scores are computed (shown next to them; compliance.scores.ts implements it). */
export const SCORE_FORMULA =
  'Each HIPAA mock-audit requirement and each compliance gap is one control. Compliant or Closed earns 1, ' +
  'Partial or In Progress earns ½, Not compliant or Open earns 0. Score = earned ÷ controls; the technical ' +
  'score counts only Technical safeguards.';

export const gapsResponseSchema = z.object({ gaps: z.array(complianceGapSchema), scores: complianceScoresSchema });
export type GapsResponse = z.infer<typeof gapsResponseSchema>;

export const gapPatchSchema = z.object({ status: gapStatusSchema }).strict();
export type GapPatch = z.infer<typeof gapPatchSchema>;

// ----- Security check runner ----------------------------------------------------------------------

export const SECURITY_CHECK_IDS = ['vulnerability-scan', 'encryption', 'tls', 'rbac', 'mfa', 'audit'] as const;
export const securityCheckIdSchema = z.enum(SECURITY_CHECK_IDS);
export type SecurityCheckId = z.infer<typeof securityCheckIdSchema>;

export const securityCheckSchema = z.object({
  checkId: securityCheckIdSchema,
  name: z.string(),
  /** What the check really tests. */
  description: z.string(),
});
export type SecurityCheck = z.infer<typeof securityCheckSchema>;
export const securityChecksResponseSchema = z.object({ checks: z.array(securityCheckSchema) });

export const securityCheckResultSchema = z.object({
  checkId: securityCheckIdSchema,
  name: z.string(),
  status: z.enum(['pass', 'fail']),
  /** The product's fixed message for the outcome (or an honest one where none is fixed). */
  message: z.string(),
  /** What was found: one line per finding or measurement. */
  details: z.array(z.string()),
});
export type SecurityCheckResult = z.infer<typeof securityCheckResultSchema>;
export const securityCheckParamsSchema = z.object({ checkId: securityCheckIdSchema });

/** The runner's overall message. */
export function overallCheckMessage(results: readonly Pick<SecurityCheckResult, 'status'>[]): string {
  return results.every((r) => r.status === 'pass') ? 'All tests passed!' : 'Some tests failed';
}
