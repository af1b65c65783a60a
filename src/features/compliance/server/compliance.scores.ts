import { percentOf } from '@/shared/percent';
import type { ComplianceScores, GapStatus, HipaaItemStatus, Score } from '../compliance.schema';

/** What one control earns (SCORE_FORMULA in compliance.schema.ts says it in words). */
const ITEM_CREDIT: Record<HipaaItemStatus, number> = { Compliant: 1, Partial: 0.5, 'Not compliant': 0 };
const GAP_CREDIT: Record<GapStatus, number> = { Closed: 1, 'In Progress': 0.5, Open: 0 };

interface Control {
  safeguard: string;
  credit: number;
}

function scoreOf(controls: readonly Control[]): Score {
  const earned = controls.reduce((sum, c) => sum + c.credit, 0);
  const possible = controls.length;
  return { percent: percentOf(earned, possible), earned, possible };
}

/**
 * Every HIPAA mock-audit requirement and every compliance gap is one control: the overall score is the
 * credit earned over all of them, the technical score the same over the Technical safeguards only.
 */
export function complianceScores(
  items: readonly { safeguard: string; status: HipaaItemStatus }[],
  gaps: readonly { safeguard: string; status: GapStatus }[],
): ComplianceScores {
  const controls: Control[] = [
    ...items.map((i) => ({ safeguard: i.safeguard, credit: ITEM_CREDIT[i.status] })),
    ...gaps.map((g) => ({ safeguard: g.safeguard, credit: GAP_CREDIT[g.status] })),
  ];
  return {
    overall: scoreOf(controls),
    technical: scoreOf(controls.filter((c) => c.safeguard === 'Technical')),
  };
}
