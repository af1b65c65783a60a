-- The current definition of analytics_visits_daily_refresh, last (re)defined by drizzle/0036_analytics_visits_rollup.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- Recomputes the days `days` from the raw tables. Whether a visit is billed depends on rows other writers may
-- be changing (a claim and an appointment of the same day, written at once), so each day's row is locked first,
-- in day order (two statements locking the same days cannot deadlock on them), and only then counted, in a
-- statement of its own: under READ COMMITTED that statement sees everything committed by the writers it
-- waited for, and the last writer of a day always counts last. Each locked day is written even when its counts
-- stay the same: a writer at REPEATABLE READ, whose snapshot cannot see the writer it waited for, then fails
-- with a serialization error instead of storing counts from before that write. A day left without completed
-- visits keeps its row at zero (deleting it would let a waiting writer find no row to lock).
CREATE OR REPLACE FUNCTION analytics_visits_daily_refresh(days date[]) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  days := ARRAY(SELECT DISTINCT d FROM unnest(days) d WHERE d IS NOT NULL ORDER BY d);
  IF cardinality(days) = 0 THEN
    RETURN;
  END IF;
  INSERT INTO analytics_visits_daily (day) SELECT unnest(days) ON CONFLICT (day) DO NOTHING;
  PERFORM 1 FROM analytics_visits_daily WHERE day = ANY (days) ORDER BY day FOR NO KEY UPDATE;
  EXECUTE format($sql$
    update analytics_visits_daily t
    set completed = coalesce(v.completed, 0), captured = coalesce(v.captured, 0)
    from unnest($1) d(day) left join (%s) v on v.day = d.day
    where t.day = d.day
  $sql$, analytics_visits_daily_sql(true)) USING days;
END;
$fn$;
