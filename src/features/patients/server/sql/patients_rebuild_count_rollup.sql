-- The current definition of patients_rebuild_count_rollup, last (re)defined by drizzle/0015_dashboard_payer_encounter_rollups.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
CREATE OR REPLACE FUNCTION patients_rebuild_count_rollup() RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  TRUNCATE patients_count_rollup;
  INSERT INTO patients_count_rollup (one, patients) SELECT true, count(*) FROM patients;
END;
$fn$;
