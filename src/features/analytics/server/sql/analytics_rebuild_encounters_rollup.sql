-- The current definition of analytics_rebuild_encounters_rollup, last (re)defined by drizzle/0015_dashboard_payer_encounter_rollups.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- Rebuilds of the rollups that are not claims': each from its raw table (after its TRUNCATE, and in the full rebuild).
CREATE OR REPLACE FUNCTION analytics_rebuild_encounters_rollup() RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  TRUNCATE analytics_encounters_daily;
  EXECUTE analytics_encounters_delta_sql('select 1 as sign, * from encounters');
END;
$fn$;
