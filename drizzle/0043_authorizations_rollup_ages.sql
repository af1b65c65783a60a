-- The authorizations rollup also keeps what the Avg Age tile needs (authorizations_status_delta_sql.sql), so an
-- unfiltered Authorizations page reads it instead of every authorization; rebuilt once here to fill it.
ALTER TABLE "authorizations_status_rollup" ADD COLUMN "decided_age_days" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "authorizations_status_rollup" ADD COLUMN "undecided" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "authorizations_status_rollup" ADD COLUMN "undecided_requested_days" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
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
--> statement-breakpoint
SELECT authorizations_rebuild_status_rollup();
