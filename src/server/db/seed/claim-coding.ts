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

/**
 * Medicare's annual wellness visit (HCPCS G0438 initial, G0439 subsequent): Medicare waives the Part B deductible
 * and coinsurance for it (sections 4103 and 4104 of the Affordable Care Act), so the patient owes nothing on that
 * line; the other lines of the visit (a test, an immunization) are shared as usual.
 */
const COST_SHARING_WAIVED_BY_MEDICARE = new Set(['G0438', 'G0439']);

/** The part of a claim's charge whose cost the patient shares with the payer: all of it but the lines waived. */
export function costSharedCents(
  lines: readonly { procedureCode: string; chargeCents: number }[],
  payer: string,
): number {
  return lines.reduce(
    (sum, line) =>
      payer === 'Medicare' && COST_SHARING_WAIVED_BY_MEDICARE.has(line.procedureCode) ? sum : sum + line.chargeCents,
    0,
  );
}
