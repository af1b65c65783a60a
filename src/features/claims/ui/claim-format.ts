/** The place-of-service codes (CMS POS) a clinic bills most; a claim may carry another, shown as its code. */
export const PLACES_OF_SERVICE = [
  { code: '11', label: 'Office' },
  { code: '02', label: 'Telehealth (not at home)' },
  { code: '10', label: 'Telehealth at home' },
  { code: '12', label: 'Home' },
  { code: '22', label: 'Outpatient hospital' },
  { code: '81', label: 'Independent lab' },
] as const;

export function placeOfServiceText(code: string): string {
  const known = PLACES_OF_SERVICE.find((p) => p.code === code);
  return known ? `${code} ${known.label}` : code;
}

/** Claim frequency (X12 CLM05-3): 7 and 8 name the payer's number of the claim they replace or void. */
export const FREQUENCIES = [
  { code: '1', label: 'Original' },
  { code: '7', label: 'Replacement' },
  { code: '8', label: 'Void' },
] as const;
export type FrequencyCode = (typeof FREQUENCIES)[number]['code'];

export function frequencyText(code: string): string {
  const known = FREQUENCIES.find((f) => f.code === code);
  return known ? `${code} ${known.label}` : code;
}

const PRIORITIES = ['Primary', 'Secondary', 'Tertiary'] as const;

/** 1 Primary, 2 Secondary, 3 Tertiary (X12 SBR01 P, S, T). */
export function priorityText(priority: number): string {
  return PRIORITIES[priority - 1] ?? `Priority ${priority}`;
}
