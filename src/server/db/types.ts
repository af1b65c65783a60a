import type { NodePgDatabase } from 'drizzle-orm/node-postgres';

export type Db = NodePgDatabase;
/** A transaction handle, as passed to `db.transaction(async (tx) => …)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;
