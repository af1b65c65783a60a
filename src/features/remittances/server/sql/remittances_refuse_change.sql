-- The current definition of remittances_refuse_change, last (re)defined by drizzle/0035_remittance_ledger_rules.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- The posting ledger and the provider adjustments are append-only, like audit_log: a posting is corrected by
-- another posting (a reversal), never by changing or removing one. TRUNCATE stays allowed: the admin's global
-- reset and a re-seed empty every clinic record, claims included.
CREATE OR REPLACE FUNCTION remittances_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
