-- The current definition of audit_commit_staged, last (re)defined by drizzle/0042_audit_append_at_commit.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- Chains and appends, at COMMIT, the audit entries a transaction staged (record and recordMany in
-- audit.queries.ts insert each entry's canonical line into audit_staging). A deferred constraint trigger on
-- audit_staging calls it while the transaction commits: the chain's lock is taken there and held only for the
-- append and the commit itself. Appended as the change's own statement instead, the entry kept the lock
-- across the app's round trip to COMMIT, and every other write waited out that round trip under load.
-- The entries still commit or roll back with the change they record: they are appended in its transaction.
-- The first firing in a transaction appends every staged row (in staging order) and deletes them; later
-- firings find none. Rows of other transactions are never visible: each is deleted by its own commit.
-- The app's HMAC pads (never stored) come in transaction-local settings (set_config(..., true)) with the
-- staging insert; the genesis hash is audit.queries.ts's GENESIS_HASH (64 zeros).
-- The newest hash must be read after the lock is granted, which needs a fresh snapshot per statement: under
-- REPEATABLE READ or SERIALIZABLE the chain would fork, so such a transaction is refused.
CREATE OR REPLACE FUNCTION audit_commit_staged() RETURNS trigger
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  batches text[];
  batch text;
  inner_pad bytea := decode(nullif(current_setting('audit.hmac_inner', true), ''), 'hex');
  outer_pad bytea := decode(nullif(current_setting('audit.hmac_outer', true), ''), 'hex');
BEGIN
  WITH staged AS (DELETE FROM audit_staging RETURNING seq, entries)
  SELECT array_agg(s.entries ORDER BY s.seq) INTO batches FROM staged s;
  IF batches IS NULL THEN
    RETURN NULL;
  END IF;
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'audit entries are chained at commit only under READ COMMITTED (isolation is %)',
      current_setting('transaction_isolation');
  END IF;
  FOREACH batch IN ARRAY batches LOOP
    PERFORM audit_append_batch(batch, repeat('0', 64), inner_pad, outer_pad);
  END LOOP;
  RETURN NULL;
END
$fn$;
