-- The current definition of authorizations_status_delta_sql, last (re)defined by drizzle/0015_dashboard_payer_encounter_rollups.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- Authorizations per status: + new rows − old rows.
CREATE OR REPLACE FUNCTION authorizations_status_delta_sql(source text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT format($tpl$
insert into authorizations_status_rollup as t (status, authorizations)
select status, sum(sign) from (%s) r
group by status having sum(sign) <> 0
order by status
on conflict (status) do update set authorizations = t.authorizations + excluded.authorizations
$tpl$, source)
$fn$;
