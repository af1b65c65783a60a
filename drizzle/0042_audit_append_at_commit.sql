-- Audit entries written with a change are staged in the change's transaction and chained into audit_log as it
-- commits (src/features/audit/server/sql/audit_commit_staged.sql), so the chain's lock is no longer held across
-- the app's round trip to COMMIT. The staging table is UNLOGGED: a staged row lives only inside its own
-- transaction (deleted by its commit, gone with its rollback), so it needs no WAL and nothing of it survives
-- a crash that the crash does not also roll back.
-- audit_append (one entry as its change's own statement) is no longer called: dropped.
DROP FUNCTION IF EXISTS audit_append(timestamptz, text, integer, text, text, text, text, integer, text, text, text, text, bytea, bytea);
--> statement-breakpoint
CREATE UNLOGGED TABLE audit_staging (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- Canonical lines (hashedRest), one per entry, separated by line feeds, in their order.
  entries text NOT NULL
);
--> statement-breakpoint
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
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER audit_staging_commit AFTER INSERT ON audit_staging
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION audit_commit_staged();
--> statement-breakpoint
-- The change feed: every table notifies (audit_staging's commits change nothing a cached answer reads).
CREATE TRIGGER audit_staging_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON audit_staging
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();
