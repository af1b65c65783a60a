-- The current definition of analytics_rollups_after_truncate, last (re)defined by drizzle/0010_analytics_rollup_triggers.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- TRUNCATE fires no row triggers: the rollups are recomputed (empty after the reset's TRUNCATE).
CREATE OR REPLACE FUNCTION analytics_rollups_after_truncate() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM analytics_rebuild_rollups();
  RETURN NULL;
END;
$fn$;
