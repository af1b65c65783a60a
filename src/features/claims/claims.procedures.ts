/**
 * What each procedure (CPT/HCPCS) code the practice bills means, in words a patient reads on a statement.
 * Codes outside this list (an imported claim may carry any code) are shown by code alone.
 */
export const PROCEDURE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  '99213': 'Established visit, low complexity',
  '99214': 'Established visit, moderate complexity',
  '99215': 'Established visit, high complexity',
  '99212': 'Established visit, straightforward',
  '99203': 'New patient visit, low complexity',
  '99204': 'New patient visit, moderate complexity',
  '99391': 'Preventive visit, under 1 year',
  '99392': 'Preventive visit, age 1-4',
  '99393': 'Preventive visit, age 5-11',
  '99394': 'Preventive visit, age 12-17',
  '99395': 'Preventive visit, age 18-39',
  '99396': 'Preventive visit, age 40-64',
  '99397': 'Preventive visit, age 65 and over',
  G0439: 'Medicare annual wellness visit',
  '80053': 'Comprehensive metabolic panel',
  '80061': 'Lipid panel',
  '85025': 'Complete blood count',
  '83036': 'HbA1c',
  '93000': 'Electrocardiogram',
  '36415': 'Venipuncture',
  '90471': 'Immunization administration',
  '90686': 'Influenza vaccine',
  '87880': 'Rapid strep test',
  '96127': 'Brief behavioural screening',
  '84443': 'Thyroid stimulating hormone (TSH)',
  '87804': 'Rapid influenza test',
  '94010': 'Spirometry',
  '93306': 'Echocardiogram, complete',
  '93015': 'Cardiac stress test',
  '95810': 'Sleep study, attended',
  '95004': 'Allergy skin tests',
};

/** The words for a procedure code, or null when the practice's list does not have it. */
export function procedureDescription(code: string): string | null {
  return Object.hasOwn(PROCEDURE_DESCRIPTIONS, code) ? (PROCEDURE_DESCRIPTIONS[code] ?? null) : null;
}
