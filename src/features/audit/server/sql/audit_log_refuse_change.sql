-- The current definition of audit_log_refuse_change, last (re)defined by drizzle/0001_audit_append_only.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- The audit trail is append-only: the application can insert entries but never change or remove them.
CREATE OR REPLACE FUNCTION audit_log_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
