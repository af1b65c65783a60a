-- The current definition of analytics_visits_daily_sql, last (re)defined by drizzle/0036_analytics_visits_rollup.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- Charge Capture Accuracy's counts per day, as SQL: completed visits (appointments with status Completed) and,
-- of them, those billed by a claim of the same patient whose service date is the visit's day. That is the
-- raw rule (visitBilledSql, analytics.queries.ts) word for word: any claim counts, whatever its status, a
-- voided one too. With `only_days` the days are those of the date[] bound as $1; without, every day. The
-- billed visits are a semi-join of their own, so the planner probes claims_patient_idx per visit for a few
-- days and joins the tables whole for a rebuild.
CREATE OR REPLACE FUNCTION analytics_visits_daily_sql(only_days boolean) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT format($tpl$
select day, sum(completed)::bigint as completed, sum(captured)::bigint as captured from (
  select a.date as day, count(*) as completed, 0 as captured
  from appointments a where a.status = 'Completed' %1$s
  group by a.date
  union all
  select a.date, 0, count(*)
  from appointments a where a.status = 'Completed' %1$s
    and exists (select 1 from claims c where c.patient_id = a.patient_id and c.service_date = a.date)
  group by a.date
) visits
group by day
$tpl$, CASE WHEN only_days THEN 'and a.date = any ($1)' ELSE '' END)
$fn$;
