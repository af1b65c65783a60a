-- The current definition of rollups_rebuild_after_truncate, last (re)defined by drizzle/0036_analytics_visits_rollup.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
CREATE OR REPLACE FUNCTION rollups_rebuild_after_truncate() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  CASE TG_TABLE_NAME
    WHEN 'encounters' THEN PERFORM analytics_rebuild_encounters_rollup();
    WHEN 'authorizations' THEN PERFORM authorizations_rebuild_status_rollup();
    WHEN 'patients' THEN PERFORM patients_rebuild_count_rollup();
    WHEN 'appointments' THEN PERFORM analytics_rebuild_visits_rollup();
  END CASE;
  RETURN NULL;
END;
$fn$;
