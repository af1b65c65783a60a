-- The current definition of analytics_encounters_delta_sql, last (re)defined by drizzle/0015_dashboard_payer_encounter_rollups.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- Encounters by date (Charge Capture Accuracy): + new rows − old rows.
CREATE OR REPLACE FUNCTION analytics_encounters_delta_sql(source text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT format($tpl$
insert into analytics_encounters_daily as t (encounter_date, encounters, charges_captured)
select encounter_date, sum(sign), sum(sign * charges_captured::int)
from (%s) r
group by encounter_date
having sum(sign) <> 0 or sum(sign * charges_captured::int) <> 0
order by encounter_date
on conflict (encounter_date) do update set encounters = t.encounters + excluded.encounters,
  charges_captured = t.charges_captured + excluded.charges_captured
$tpl$, source)
$fn$;
