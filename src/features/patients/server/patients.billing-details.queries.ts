import { eq } from 'drizzle-orm';
import { actorOf, record, recordRead } from '@/features/audit/server/audit.queries';
import { maskHomeAddressPart, type Role } from '@/shared/access';
import type { AfterPatientBillingChange, RequestContext } from '@/server/context';
import type { Db } from '@/server/db/types';
import { HttpError } from '@/server/plugins/errors';
import {
  ADDRESS_FIELDS,
  SEX_LABELS,
  type PatientBillingDetails,
  type PatientBillingDetailsUpdate,
  type PatientSex,
} from '../patients.schema';
import { patients } from './patients.table';

const columns = {
  patientId: patients.id,
  sex: patients.sex,
  addressLine1: patients.addressLine1,
  city: patients.city,
  state: patients.state,
  zip: patients.zip,
};

type StoredDetails = Omit<PatientBillingDetails, 'addressComplete' | 'sex'> & { sex: string };

/** The details as the role may see them; whether the address is whole is told from the stored values. */
function shown(row: StoredDetails, role: Role): PatientBillingDetails {
  return {
    ...row,
    sex: row.sex as PatientSex,
    addressLine1: maskHomeAddressPart(row.addressLine1, role),
    zip: maskHomeAddressPart(row.zip, role),
    addressComplete: ADDRESS_FIELDS.every((field) => (row[field] ?? '').trim() !== ''),
  };
}

const noSuchPatient = () => new HttpError(404, 'NOT_FOUND', 'No such patient.');

/** A patient's sex and home address (GET /api/patients/:id/billing-details): an audited PHI read. */
export async function getPatientBillingDetails(
  db: Db,
  ctx: RequestContext,
  patientId: number,
): Promise<PatientBillingDetails> {
  const [row] = await db.select(columns).from(patients).where(eq(patients.id, patientId));
  if (!row) throw noSuchPatient();
  await recordRead(db, ctx, {
    action: 'patient.billing_details.view',
    resource: `patient/${patientId}`,
    detail: 'viewed sex and home address',
    patientId,
  });
  return shown(row, ctx.user.role);
}

/**
 * What changed, for the audit log: the sex (a payer's code, not a clinical finding) by value; the address by
 * the parts that changed and never their values, as the log's readers need not see where a patient lives.
 */
function changesOf(before: StoredDetails, after: StoredDetails): string[] {
  const changes: string[] = [];
  if (before.sex !== after.sex) {
    changes.push(`sex ${SEX_LABELS[before.sex as PatientSex]} -> ${SEX_LABELS[after.sex as PatientSex]}`);
  }
  const names = { addressLine1: 'street', city: 'city', state: 'state', zip: 'ZIP' } as const;
  const parts = ADDRESS_FIELDS.filter((field) => before[field] !== after[field]).map((field) => names[field]);
  if (parts.length > 0) changes.push(`address changed (${parts.join(', ')})`);
  return changes;
}

/** Replaces a patient's sex and home address (PUT /api/patients/:id/billing-details); audited. */
export async function updatePatientBillingDetails(
  db: Db,
  ctx: RequestContext,
  patientId: number,
  update: PatientBillingDetailsUpdate,
  afterSaved?: AfterPatientBillingChange,
): Promise<PatientBillingDetails> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select(columns).from(patients).where(eq(patients.id, patientId)).for('no key update');
    if (!before) throw noSuchPatient();
    const [after] = await tx.update(patients).set(update).where(eq(patients.id, patientId)).returning(columns);
    if (!after) throw new Error('patient update returned nothing');
    const changes = changesOf(before, after);
    await record(tx, {
      ...actorOf(ctx),
      action: 'patient.billing_details.update',
      resource: `patient/${patientId}`,
      detail: changes.length > 0 ? changes.join(', ') : 'no change',
      patientId,
    });
    if (changes.length > 0) await afterSaved?.(tx, ctx, patientId);
    return shown(after, ctx.user.role);
  });
}
