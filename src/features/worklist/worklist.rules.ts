/**
 * Priority and recommended action of an overdue follow-up (documented rules: the same
 * rules, with their reasons, are in docs/worklist.md). Pure functions, so the server and the tests share
 * them and a clinician can read them in one place.
 *
 * A follow-up's urgency grows with two things: how dangerous a lapse in care is for the patient's
 * conditions, and how long the follow-up has been overdue. Each diagnosis falls in a risk class; the
 * patient takes the highest class among the encounter's diagnoses; the class sets the day thresholds.
 *
 * | risk class | conditions (ICD-10-CM)                                    | High when overdue | Medium when overdue | Low         |
 * | ---------- | --------------------------------------------------------- | ----------------- | ------------------- | ----------- |
 * | high-risk  | I50.9 heart failure, N18.30–N18.32 CKD stage 3, J44.9 COPD | > 14 days        | 1–14 days           | never       |
 * | chronic    | E11.9 diabetes, I10 hypertension, E78.5 hyperlipidaemia,   | > 180 days        | 31–180 days         | 1–30 days   |
 * |            | J45.909 asthma, E03.9 hypothyroidism, F41.1 anxiety       |                   |                     |             |
 * | routine    | anything else (e.g. M54.5 back pain, H66.90 otitis media, | never             | > 180 days          | 1–180 days  |
 * |            | Z00.00 general exam)                                      |                   |                     |             |
 */
import type { FollowUpPriority } from './worklist.schema';

/** From the most to the least dangerous lapse. */
export const RISK_CLASSES = ['high-risk', 'chronic', 'routine'] as const;
export type RiskClass = (typeof RISK_CLASSES)[number];

/** Conditions where a lapse in follow-up commonly ends in decompensation and a hospital admission. */
export const HIGH_RISK_CODES: readonly string[] = ['I50.9', 'N18.30', 'N18.31', 'N18.32', 'N18.3', 'J44.9'];
/** Chronic conditions that need regular monitoring and medication review. */
export const CHRONIC_CODES: readonly string[] = ['E11.9', 'I10', 'E78.5', 'J45.909', 'E03.9', 'F41.1'];

/**
 * Days overdue above which a follow-up becomes High, and above which it becomes Medium, per risk class
 * (null: never). A lapse matters most where the condition can decompensate; a routine or self-limited
 * problem (back pain, otitis, a general exam) only needs the patient re-engaged after a long gap.
 */
export const THRESHOLDS: Record<RiskClass, { high: number | null; medium: number }> = {
  'high-risk': { high: 14, medium: 0 },
  chronic: { high: 180, medium: 30 },
  routine: { high: null, medium: 180 },
};

/** What the care team should do, per priority; the tiles' subtitles say the same in short. */
export const RECOMMENDED_ACTIONS: Record<FollowUpPriority, string> = {
  High: 'Call patient today to schedule follow-up',
  Medium: 'Schedule follow-up within 1 week',
  Low: 'Send reminder to schedule follow-up',
};

const PRIORITY_RANK: Record<FollowUpPriority, number> = { High: 0, Medium: 1, Low: 2 };

/** The ICD-10 code of a diagnosis entry such as 'I50.9 Heart failure, unspecified'. */
export function diagnosisCode(diagnosis: string): string {
  return diagnosis.trim().split(/\s+/)[0]?.toUpperCase() ?? '';
}

export function riskClassOf(diagnoses: readonly string[]): RiskClass {
  const codes = diagnoses.map(diagnosisCode);
  if (codes.some((c) => HIGH_RISK_CODES.includes(c))) return 'high-risk';
  if (codes.some((c) => CHRONIC_CODES.includes(c))) return 'chronic';
  return 'routine';
}

export function followUpPriority(diagnoses: readonly string[], daysOverdue: number): FollowUpPriority {
  const limits = THRESHOLDS[riskClassOf(diagnoses)];
  if (limits.high !== null && daysOverdue > limits.high) return 'High';
  if (daysOverdue > limits.medium) return 'Medium';
  return 'Low';
}

export function recommendedAction(priority: FollowUpPriority): string {
  return RECOMMENDED_ACTIONS[priority];
}

/** Worklist order: High first, then Medium, then Low; within a priority the longest overdue first. */
export function compareFollowUps(
  a: { priority: FollowUpPriority; daysOverdue: number; encounterId: number },
  b: { priority: FollowUpPriority; daysOverdue: number; encounterId: number },
): number {
  return (
    PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] ||
    b.daysOverdue - a.daysOverdue ||
    a.encounterId - b.encounterId
  );
}
