-- The current definition of analytics_rebuild_visits_rollup, last (re)defined by drizzle/0036_analytics_visits_rollup.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- The visits rollup from the raw tables, every day in one grouped statement (the full rebuild, a TRUNCATE of
-- appointments, and this migration for existing databases).
CREATE OR REPLACE FUNCTION analytics_rebuild_visits_rollup() RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  TRUNCATE analytics_visits_daily;
  EXECUTE format('insert into analytics_visits_daily (day, completed, captured) select * from (%s) v order by day',
    analytics_visits_daily_sql(false));
END;
$fn$;
