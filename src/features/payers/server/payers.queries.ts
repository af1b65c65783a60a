import { asc, eq } from 'drizzle-orm';
import { actorOf, record } from '@/features/audit/server/audit.queries';
import type { RequestContext } from '@/server/context';
import { uniqueViolationOf } from '@/server/db/sql-helpers';
import type { Db, DbOrTx } from '@/server/db/types';
import { HttpError } from '@/server/plugins/errors';
import { type ActivePayer, type NewPayer, type PayerPatch, type PayerRecord } from '../payers.schema';
import { payers } from './payers.table';

const columns = {
  id: payers.id,
  name: payers.name,
  payerId: payers.payerId,
  timelyFilingDays: payers.timelyFilingDays,
  appealDays: payers.appealDays,
  claimStatusAfterDays: payers.claimStatusAfterDays,
  claimFilingIndicator: payers.claimFilingIndicator,
  active: payers.active,
};

/** Every payer, deactivated ones included. */
export function listPayers(db: DbOrTx): Promise<PayerRecord[]> {
  return db.select(columns).from(payers).orderBy(asc(payers.name));
}

/** The payers a new policy or claim can name, with the kind of plan each is. */
export function listActivePayers(db: DbOrTx): Promise<ActivePayer[]> {
  return db
    .select({ name: payers.name, claimFilingIndicator: payers.claimFilingIndicator })
    .from(payers)
    .where(eq(payers.active, true))
    .orderBy(asc(payers.name));
}

/** A payer by name, active or not, or null. */
export async function payerNamed(db: DbOrTx, name: string) {
  const [found] = await db
    .select({ name: payers.name, claimFilingIndicator: payers.claimFilingIndicator, active: payers.active })
    .from(payers)
    .where(eq(payers.name, name))
    .limit(1);
  return found ?? null;
}

function conflict(err: unknown): HttpError | null {
  const constraint = uniqueViolationOf(err);
  if (constraint === 'payers_name_unique') {
    return new HttpError(409, 'PAYER_EXISTS', 'name: a payer of that name already exists', {
      fields: [{ field: 'name', message: 'is already the name of another payer' }],
    });
  }
  if (constraint === 'payers_payer_id_unique') {
    return new HttpError(409, 'PAYER_EXISTS', 'payerId: another payer has that payer id', {
      fields: [{ field: 'payerId', message: 'is already the payer id of another payer' }],
    });
  }
  return null;
}

function describe(p: PayerRecord): string {
  return `payer id ${p.payerId ?? 'none'}, timely filing ${p.timelyFilingDays} days, appeals ${p.appealDays} days, ${statusAfter(p.claimStatusAfterDays)}, filing indicator ${p.claimFilingIndicator}`;
}

function statusAfter(days: number | null): string {
  return days === null ? 'no status requests' : `status request after ${days} days`;
}

export async function createPayer(db: Db, ctx: RequestContext, value: NewPayer): Promise<PayerRecord> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.insert(payers).values(value).returning(columns);
      if (!row) throw new Error('payer insert returned nothing');
      await record(tx, {
        ...actorOf(ctx),
        action: 'payer.create',
        resource: `payer/${row.id}`,
        detail: `added ${row.name} (${describe(row)})`,
      });
      return row;
    });
  } catch (err) {
    throw conflict(err) ?? err;
  }
}

export async function updatePayer(db: Db, ctx: RequestContext, id: number, patch: PayerPatch): Promise<PayerRecord> {
  try {
    return await db.transaction(async (tx) => {
      const [current] = await tx.select(columns).from(payers).where(eq(payers.id, id)).for('update');
      if (!current) throw new HttpError(404, 'NOT_FOUND', 'No such payer.');
      const [row] = await tx.update(payers).set(patch).where(eq(payers.id, id)).returning(columns);
      if (!row) throw new Error('payer update returned nothing');
      const changes: string[] = [];
      if (row.payerId !== current.payerId)
        changes.push(`payer id ${current.payerId ?? 'none'} -> ${row.payerId ?? 'none'}`);
      if (row.timelyFilingDays !== current.timelyFilingDays) {
        changes.push(`timely filing ${current.timelyFilingDays} -> ${row.timelyFilingDays} days`);
      }
      if (row.appealDays !== current.appealDays) {
        changes.push(`appeals ${current.appealDays} -> ${row.appealDays} days`);
      }
      if (row.claimStatusAfterDays !== current.claimStatusAfterDays) {
        changes.push(`${statusAfter(current.claimStatusAfterDays)} -> ${statusAfter(row.claimStatusAfterDays)}`);
      }
      if (row.claimFilingIndicator !== current.claimFilingIndicator) {
        changes.push(`filing indicator ${current.claimFilingIndicator} -> ${row.claimFilingIndicator}`);
      }
      if (row.active !== current.active) changes.push(row.active ? 'reactivated' : 'deactivated');
      await record(tx, {
        ...actorOf(ctx),
        action: 'payer.update',
        resource: `payer/${id}`,
        detail: `${row.name}: ${changes.length > 0 ? changes.join(', ') : 'no change'}`,
      });
      return row;
    });
  } catch (err) {
    throw conflict(err) ?? err;
  }
}
