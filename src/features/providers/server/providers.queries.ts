import { asc, eq } from 'drizzle-orm';
import type { Db } from '@/server/db/types';
import { providers } from './providers.table';

export function listActiveProviders(db: Db) {
  return db
    .select({ id: providers.id, name: providers.name, specialty: providers.specialty })
    .from(providers)
    .where(eq(providers.active, true))
    .orderBy(asc(providers.name));
}
