/**
 * A claim as its view receives it (GET /api/claims/:id), for the tests of the screens that show one: a Draft
 * with two lines, three diagnoses, a scrub that found an error and a warning, and a short history.
 */
import type { ClaimDetail } from '../claims.schema';

export function claimDetail(overrides: Partial<ClaimDetail> = {}): ClaimDetail {
  return {
    id: 7,
    accountNumber: 'ACC-2026-100007',
    status: 'Draft',
    patient: { id: 3, name: 'Ana Silva', mrn: '*******01', dob: 'XX-XX-1984' },
    provider: { id: 2, name: 'Dr. Sarah Mitchell', npi: '1234567893' },
    payer: 'Aetna',
    coverage: {
      id: 31,
      payer: 'Aetna',
      priority: 1,
      memberId: 'W123456789',
      groupNumber: 'GRP-42',
      relationship: 'child',
      subscriberName: 'Marco Silva',
      effectiveOn: '2026-01-01',
      endOn: null,
    },
    placeOfService: '11',
    frequencyCode: '7',
    originalClaimNumber: 'PAYER-998877',
    referringProvider: null,
    serviceDate: '2026-07-01',
    submittedOn: null,
    adjudicatedOn: null,
    resolvedOn: null,
    billedCents: 24_900,
    paidCents: 0,
    contractualAdjustmentCents: 1_500,
    patientResponsibilityCents: 2_000,
    balanceCents: 21_400,
    handedOnCents: 0,
    priorPayersCents: 0,
    reason: null,
    denialDescription: null,
    diagnoses: ['E11.9', 'I10', 'Z00.00'],
    lines: [
      {
        lineNumber: 1,
        procedureCode: '99213',
        description: 'Office visit, established patient, low complexity',
        modifiers: ['25'],
        units: 1,
        chargeCents: 14_900,
        diagnosisPointers: [1, 2],
        serviceDate: '2026-07-01',
        lineControlNumber: 'ACC-2026-100007-1',
      },
      {
        lineNumber: 2,
        procedureCode: '36415',
        description: null,
        modifiers: [],
        units: 2,
        chargeCents: 10_000,
        diagnosisPointers: [3],
        serviceDate: '2026-07-01',
        lineControlNumber: 'ACC-2026-100007-2',
      },
    ],
    submissions: [],
    lastScrub: {
      at: '2026-07-02T18:05:00Z',
      clean: false,
      edits: [
        {
          code: 'POINTER_RANGE',
          severity: 'error',
          field: 'lines[1].diagnosisPointers',
          message: 'Line 2 points at diagnosis 4, which the claim does not have',
        },
        {
          code: 'TIMELY_FILING_NEAR',
          severity: 'warning',
          field: 'serviceDate',
          message: 'Timely filing ends in 10 days',
        },
      ],
    },
    history: [
      { at: '2026-07-02T14:00:00Z', kind: 'lifecycle', title: 'Claim created', detail: '2 lines', by: null, edits: [] },
      {
        at: '2026-07-02T18:05:00Z',
        kind: 'scrub',
        title: 'Scrub found errors',
        detail: '1 error, 1 warning',
        by: 'Billing Admin',
        edits: [
          {
            code: 'POINTER_RANGE',
            severity: 'error',
            field: 'lines[1].diagnosisPointers',
            message: 'Line 2 points at diagnosis 4, which the claim does not have',
          },
        ],
      },
      { at: '2026-07-03', kind: 'lifecycle', title: 'Submitted to the payer', detail: 'Aetna', by: null, edits: [] },
    ],
    primaryClaim: null,
    laterClaims: [],
    nextPolicy: null,
    ...overrides,
  };
}
