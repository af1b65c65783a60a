import { asc, eq } from 'drizzle-orm';
import { actorOf, record } from '@/features/audit/server/audit.queries';
import type { RequestContext } from '@/server/context';
import { uniqueViolationOf } from '@/server/db/sql-helpers';
import type { Db } from '@/server/db/types';
import { HttpError } from '@/server/plugins/errors';
import type { ManagedProvider, NewProvider, ProviderPatch } from '../providers.schema';
import { providers } from './providers.table';

/** The providers offered for new bookings: deactivated ones are left out. */
export function listActiveProviders(db: Db) {
  return db
    .select({ id: providers.id, name: providers.name, specialty: providers.specialty })
    .from(providers)
    .where(eq(providers.active, true))
    .orderBy(asc(providers.name));
}

const managedColumns = {
  id: providers.id,
  name: providers.name,
  specialty: providers.specialty,
  active: providers.active,
  npi: providers.npi,
  taxonomyCode: providers.taxonomyCode,
};

/** Every provider, deactivated ones included, for the admin who maintains them. */
export function listAllProviders(db: Db): Promise<ManagedProvider[]> {
  return db.select(managedColumns).from(providers).orderBy(asc(providers.name));
}

function conflict(err: unknown): HttpError | null {
  const constraint = uniqueViolationOf(err);
  if (constraint === 'providers_name_unique') {
    return new HttpError(409, 'PROVIDER_EXISTS', 'name: a provider of that name already exists', {
      fields: [{ field: 'name', message: 'is already the name of another provider' }],
    });
  }
  // CMS issues one NPI per person: a second provider with it is a typing slip or the same person twice.
  if (constraint === 'providers_npi_unique') {
    return new HttpError(409, 'PROVIDER_EXISTS', 'npi: another provider has that NPI', {
      fields: [{ field: 'npi', message: 'is already the NPI of another provider' }],
    });
  }
  return null;
}

/** 'Dermatology, NPI 1234567893, taxonomy 207N00000X': the billing identifiers only when entered. */
function summary(p: ManagedProvider): string {
  return [p.specialty, p.npi && `NPI ${p.npi}`, p.taxonomyCode && `taxonomy ${p.taxonomyCode}`]
    .filter(Boolean)
    .join(', ');
}

export async function createProvider(db: Db, ctx: RequestContext, input: NewProvider): Promise<ManagedProvider> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.insert(providers).values(input).returning(managedColumns);
      if (!row) throw new Error('provider insert returned nothing');
      await record(tx, {
        ...actorOf(ctx),
        action: 'provider.create',
        resource: `provider/${row.id}`,
        detail: `added ${row.name} (${summary(row)})`,
      });
      return row;
    });
  } catch (err) {
    throw conflict(err) ?? err;
  }
}

/**
 * Renames, changes the specialty, NPI or taxonomy of, deactivates or reactivates a provider; past visits and
 * claims keep them.
 */
export async function updateProvider(
  db: Db,
  ctx: RequestContext,
  id: number,
  patch: ProviderPatch,
): Promise<ManagedProvider> {
  try {
    return await db.transaction(async (tx) => {
      const [current] = await tx.select(managedColumns).from(providers).where(eq(providers.id, id)).for('update');
      if (!current) throw new HttpError(404, 'NOT_FOUND', 'No such provider.');
      const [row] = await tx.update(providers).set(patch).where(eq(providers.id, id)).returning(managedColumns);
      if (!row) throw new Error('provider update returned nothing');
      const changes: string[] = [];
      if (row.name !== current.name) changes.push(`name ${current.name} -> ${row.name}`);
      if (row.specialty !== current.specialty) changes.push(`specialty ${current.specialty} -> ${row.specialty}`);
      if (row.npi !== current.npi) changes.push(`NPI ${current.npi ?? 'none'} -> ${row.npi ?? 'none'}`);
      if (row.taxonomyCode !== current.taxonomyCode) {
        changes.push(`taxonomy ${current.taxonomyCode ?? 'none'} -> ${row.taxonomyCode ?? 'none'}`);
      }
      if (row.active !== current.active) changes.push(row.active ? 'reactivated' : 'deactivated');
      await record(tx, {
        ...actorOf(ctx),
        action: 'provider.update',
        resource: `provider/${id}`,
        detail: `${row.name}: ${changes.length > 0 ? changes.join(', ') : 'no change'}`,
      });
      return row;
    });
  } catch (err) {
    throw conflict(err) ?? err;
  }
}
