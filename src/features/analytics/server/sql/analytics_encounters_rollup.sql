-- The current definition of analytics_encounters_rollup, last (re)defined by drizzle/0015_dashboard_payer_encounter_rollups.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
CREATE OR REPLACE FUNCTION analytics_encounters_rollup() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  EXECUTE analytics_encounters_delta_sql(rollup_transition_rows_sql(TG_OP));
  RETURN NULL;
END;
$fn$;
