/**
 * How the seeded claims code their lines beyond the procedure: the modifiers and units a biller would put on
 * them. Deterministic (from the codes and the payer alone), so neither seed draws a random number for it and
 * their other values stay what they were.
 *
 * - Modifier 25 on the visit (an evaluation and management or preventive code) when the claim also bills an
 *   immunization administration (90471): under the National Correct Coding Initiative's edits the visit is paid
 *   beside it only as a significant, separately identifiable service, which 25 declares.
 * - Modifier QW on a CLIA-waived test (a rapid strep or influenza test) billed to Medicare, which requires it on
 *   the tests the FDA has waived under the Clinical Laboratory Improvement Amendments.
 * - Units: a rapid influenza test (87804) is billed once for influenza A and once for B, so two units; every other
 *   service one. A line's charge is its unit charge times its units.
 */

/** An office visit (99202–99215) or a preventive visit (99381–99397, G0438/G0439). */
const VISIT = /^(992[01]\d|993[89]\d|G043[89])$/;
/** Administrations beside which a same-day visit needs modifier 25. */
const NEEDS_SEPARATE_VISIT = new Set(['90471']);
/** CLIA-waived tests the demo clinic runs: the rapid strep test and the rapid influenza test. */
const CLIA_WAIVED = new Set(['87880', '87804']);
const UNITS: Readonly<Record<string, number>> = { '87804': 2 };

export interface LineCoding {
  modifiers: string[];
  units: number;
}

/** The modifiers and units of each of a claim's lines, in order, for its codes and payer. */
export function codeLines(codes: readonly string[], payer: string): LineCoding[] {
  const separateVisit = codes.some((code) => NEEDS_SEPARATE_VISIT.has(code));
  return codes.map((code) => {
    const modifiers: string[] = [];
    if (separateVisit && VISIT.test(code)) modifiers.push('25');
    if (payer === 'Medicare' && CLIA_WAIVED.has(code)) modifiers.push('QW');
    return { modifiers, units: UNITS[code] ?? 1 };
  });
}
