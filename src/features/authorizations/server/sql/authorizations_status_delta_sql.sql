-- The current definition of authorizations_status_delta_sql, last (re)defined by drizzle/0043_authorizations_rollup_ages.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- Authorizations per status: + new rows − old rows. With each count, what the Avg Age of all requests needs:
-- the decided requests' summed ages (decided − requested, fixed once decided), and the undecided requests'
-- count and summed request days (from 2000-01-01; their age moves with today). A row kept while its status
-- stays (a corrected date) still moves the sums, so it is kept when any sum moves.
CREATE OR REPLACE FUNCTION authorizations_status_delta_sql(source text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT format($tpl$
insert into authorizations_status_rollup as t (status, authorizations, decided_age_days, undecided,
  undecided_requested_days)
select status, sum(sign), sum(sign * coalesce(decided_on - requested_on, 0)),
  sum(sign * (decided_on is null)::int),
  sum(sign * case when decided_on is null then requested_on - date '2000-01-01' else 0 end)
from (%s) r
group by status
having sum(sign) <> 0 or sum(sign * coalesce(decided_on - requested_on, 0)) <> 0
  or sum(sign * (decided_on is null)::int) <> 0
  or sum(sign * case when decided_on is null then requested_on - date '2000-01-01' else 0 end) <> 0
order by status
on conflict (status) do update set authorizations = t.authorizations + excluded.authorizations,
  decided_age_days = t.decided_age_days + excluded.decided_age_days,
  undecided = t.undecided + excluded.undecided,
  undecided_requested_days = t.undecided_requested_days + excluded.undecided_requested_days
$tpl$, source)
$fn$;
