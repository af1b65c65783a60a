-- The current definition of authorizations_rebuild_status_rollup, last (re)defined by drizzle/0015_dashboard_payer_encounter_rollups.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
CREATE OR REPLACE FUNCTION authorizations_rebuild_status_rollup() RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  TRUNCATE authorizations_status_rollup;
  EXECUTE authorizations_status_delta_sql('select 1 as sign, * from authorizations');
END;
$fn$;
