-- The current definition of analytics_payments_rollup, last (re)defined by drizzle/0010_analytics_rollup_triggers.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- Payments inserted, updated or deleted: collections move by their amounts, and every existing claim whose
-- patient payments changed swaps its contribution with the old total (now − this statement's change) for
-- the one with the new total. The claims are locked first, so a concurrent claim update and a payment on
-- the same claim apply their deltas one after the other (skipped for bulk loads, which run alone).
CREATE OR REPLACE FUNCTION analytics_payments_rollup() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  rows_sql text := CASE TG_OP
    WHEN 'INSERT' THEN 'select 1 as sign, * from new_rows'
    WHEN 'DELETE' THEN 'select -1 as sign, * from old_rows'
    ELSE 'select 1 as sign, * from new_rows union all select -1 as sign, * from old_rows' END;
  changed_sql text;
  claim_count bigint;
BEGIN
  EXECUTE analytics_collections_delta_sql(rows_sql);
  changed_sql := format($src$
    select claim_id, sum(sign * amount_cents::bigint) as delta from (%s) r
    where claim_id is not null and source in ('patient', 'guest')
    group by claim_id having sum(sign * amount_cents::bigint) <> 0
  $src$, rows_sql);
  EXECUTE format('select count(*) from (%s) changed', changed_sql) INTO claim_count;
  IF claim_count = 0 THEN
    RETURN NULL;
  END IF;
  IF claim_count <= 10000 THEN
    EXECUTE format('select count(*) from (select 1 from claims where id in (select claim_id from (%s) changed)
      order by id for no key update) locked', changed_sql);
  END IF;
  EXECUTE analytics_rollup_delta_sql(format($src$
    with changed as (%1$s), now_paid as %2$s
    select x.sign, c.*, coalesce(now_paid.cents, 0) - case when x.sign = 1 then 0 else changed.delta end as pp
    from changed join claims c on c.id = changed.claim_id
      left join now_paid on now_paid.claim_id = c.id
      cross join (values (1), (-1)) x(sign)
  $src$, changed_sql, analytics_patient_paid_sql('select claim_id from changed')));
  RETURN NULL;
END;
$fn$;
