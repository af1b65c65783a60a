-- The analytics rollups (analytics_daily, analytics_ar_daily, analytics_ar_provider, analytics_denials_daily,
-- claims_status_rollup, claims_daily_rollup) are kept exact IN THE SAME TRANSACTION as every write to
-- claims and payments. docs/kpis.md "Rollups" explains the design.
--
-- Every figure is a sum over claims of a contribution that depends on the claim row and on the patient
-- payments received on it (pp, billing's balance rule), plus a sum over payments. A write changes the
-- rollups by contribution(new rows) − contribution(old rows), applied as increments (insert … on conflict
-- do update set x = x + delta), which concurrent transactions can apply in any order.
--
-- analytics_rollup_delta_sql(source) is THE ONE definition of a claim's contribution: it returns the
-- statement that adds `sign ×` the contribution of each row of `source` (claims columns, a `sign` of 1 or −1
-- and `pp`, the patient payments on the claim) to every rollup. Triggers run it over their transition
-- tables; analytics_rebuild_rollups() runs it over the whole claims table.
CREATE OR REPLACE FUNCTION analytics_rollup_delta_sql(source text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT format($tpl$
with s as materialized (%s),
daily as (
  insert into analytics_daily as t (day, provider_id, charge_claims, charge_paid_claims, charge_denied_claims,
    charge_billed_cents, submitted_claims, submitted_clean_claims, submitted_cycle_days, adjudicated_claims,
    adjudicated_denied_claims, adjudicated_first_pass_claims, adjudicated_collected_cents,
    adjudicated_collectible_cents, adjudicated_patient_collected_cents, adjudicated_patient_billed_cents,
    written_off_lost_cents)
  select day, provider_id, sum(a), sum(b), sum(c), sum(d), sum(e), sum(f), sum(g), sum(h), sum(i), sum(j), sum(k),
    sum(l), sum(m), sum(n), sum(o)
  from (
    -- charges: the service date
    select service_date as day, provider_id, sign as a,
      sign * (status in ('Paid', 'Partially Paid'))::int as b, sign * denied_on_first_adjudication::int as c,
      sign * billed_cents::bigint as d, 0 as e, 0 as f, 0 as g, 0 as h, 0 as i, 0 as j, 0::bigint as k,
      0::bigint as l, 0::bigint as m, 0::bigint as n, 0::bigint as o
    from s
    union all
    -- submitted: submitted_on
    select submitted_on, provider_id, 0, 0, 0, 0, sign, sign * clean_submission::int,
      sign * (submitted_on - service_date), 0, 0, 0, 0, 0, 0, 0, 0
    from s where submitted_on is not null
    union all
    -- adjudicated: adjudicated_on, with the patient payments received on the claim to date
    select adjudicated_on, provider_id, 0, 0, 0, 0, 0, 0, 0, sign, sign * denied_on_first_adjudication::int,
      sign * (clean_submission and not denied_on_first_adjudication
        and paid_cents + contractual_adjustment_cents + patient_responsibility_cents >= billed_cents)::int,
      sign * (paid_cents + pp), sign * (billed_cents - contractual_adjustment_cents),
      sign * least(pp, patient_responsibility_cents), sign * patient_responsibility_cents::bigint, 0
    from s where adjudicated_on is not null
    union all
    -- revenue lost: written off on resolved_on
    select resolved_on, provider_id, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      sign * greatest(0, billed_cents - paid_cents - contractual_adjustment_cents - pp)
    from s where status = 'Written Off' and resolved_on is not null
  ) parts
  group by day, provider_id
  having sum(a) <> 0 or sum(b) <> 0 or sum(c) <> 0 or sum(d) <> 0 or sum(e) <> 0 or sum(f) <> 0 or sum(g) <> 0
    or sum(h) <> 0 or sum(i) <> 0 or sum(j) <> 0 or sum(k) <> 0 or sum(l) <> 0 or sum(m) <> 0 or sum(n) <> 0
    or sum(o) <> 0
  order by day, provider_id
  on conflict (day, provider_id) do update set
    charge_claims = t.charge_claims + excluded.charge_claims,
    charge_paid_claims = t.charge_paid_claims + excluded.charge_paid_claims,
    charge_denied_claims = t.charge_denied_claims + excluded.charge_denied_claims,
    charge_billed_cents = t.charge_billed_cents + excluded.charge_billed_cents,
    submitted_claims = t.submitted_claims + excluded.submitted_claims,
    submitted_clean_claims = t.submitted_clean_claims + excluded.submitted_clean_claims,
    submitted_cycle_days = t.submitted_cycle_days + excluded.submitted_cycle_days,
    adjudicated_claims = t.adjudicated_claims + excluded.adjudicated_claims,
    adjudicated_denied_claims = t.adjudicated_denied_claims + excluded.adjudicated_denied_claims,
    adjudicated_first_pass_claims = t.adjudicated_first_pass_claims + excluded.adjudicated_first_pass_claims,
    adjudicated_collected_cents = t.adjudicated_collected_cents + excluded.adjudicated_collected_cents,
    adjudicated_collectible_cents = t.adjudicated_collectible_cents + excluded.adjudicated_collectible_cents,
    adjudicated_patient_collected_cents = t.adjudicated_patient_collected_cents + excluded.adjudicated_patient_collected_cents,
    adjudicated_patient_billed_cents = t.adjudicated_patient_billed_cents + excluded.adjudicated_patient_billed_cents,
    written_off_lost_cents = t.written_off_lost_cents + excluded.written_off_lost_cents
  returning 1
),
open_ar as (
  -- Outstanding A/R (outstandingArRowsSql): open receivables, by service date (aged at query time) and by provider.
  select sign, service_date, provider_id, status,
    greatest(0, billed_cents - paid_cents - contractual_adjustment_cents - pp)::bigint as outstanding
  from s where resolved_on is null and submitted_on is not null and status not in ('Draft', 'Written Off')
),
receivables as (
  insert into analytics_ar_daily as t (service_date, outstanding_cents, open_denials_cents)
  select service_date, sum(sign * outstanding),
    coalesce(sum(sign * outstanding) filter (where status in ('Denied', 'Appealed')), 0)
  from open_ar
  group by service_date
  having sum(sign * outstanding) <> 0
    or coalesce(sum(sign * outstanding) filter (where status in ('Denied', 'Appealed')), 0) <> 0
  order by service_date
  on conflict (service_date) do update set
    outstanding_cents = t.outstanding_cents + excluded.outstanding_cents,
    open_denials_cents = t.open_denials_cents + excluded.open_denials_cents
  returning 1
),
receivables_by_provider as (
  insert into analytics_ar_provider as t (provider_id, outstanding_cents)
  select provider_id, sum(sign * outstanding) from open_ar
  group by provider_id having sum(sign * outstanding) <> 0
  order by provider_id
  on conflict (provider_id) do update set outstanding_cents = t.outstanding_cents + excluded.outstanding_cents
  returning 1
),
denials as (
  -- Denied on first adjudication, with a denial reason (deniedClaimSql, denialReasonSql).
  insert into analytics_denials_daily as t (adjudicated_on, reason_code, denial_description, claims)
  select adjudicated_on, reason_code, denial_description, sum(sign)
  from s
  where denied_on_first_adjudication and adjudicated_on is not null and reason_code is not null
    and reason_code <> 'CO-45' and reason_code not like 'PR-%%'
  group by adjudicated_on, reason_code, denial_description
  having sum(sign) <> 0
  order by adjudicated_on, reason_code, denial_description
  on conflict (adjudicated_on, reason_code, denial_description) do update set claims = t.claims + excluded.claims
  returning 1
),
by_status as (
  insert into claims_status_rollup as t (payer, status, reason_code, denied_on_first_adjudication, claims,
    billed_cents, paid_cents)
  select payer, status, reason_code, denied_on_first_adjudication, sum(sign), sum(sign * billed_cents::bigint),
    sum(sign * paid_cents::bigint)
  from s
  group by payer, status, reason_code, denied_on_first_adjudication
  having sum(sign) <> 0 or sum(sign * billed_cents::bigint) <> 0 or sum(sign * paid_cents::bigint) <> 0
  order by payer, status, reason_code, denied_on_first_adjudication
  on conflict (payer, status, reason_code, denied_on_first_adjudication) do update set
    claims = t.claims + excluded.claims, billed_cents = t.billed_cents + excluded.billed_cents,
    paid_cents = t.paid_cents + excluded.paid_cents
  returning 1
),
by_day as (
  insert into claims_daily_rollup as t (service_date, payer, reason_code, claims, paid_claims, denied_claims)
  select service_date, payer, reason_code, sum(sign), sum(sign * (status = 'Paid')::int),
    sum(sign * denied_on_first_adjudication::int)
  from s
  group by service_date, payer, reason_code
  having sum(sign) <> 0 or sum(sign * (status = 'Paid')::int) <> 0 or sum(sign * denied_on_first_adjudication::int) <> 0
  order by service_date, payer, reason_code
  on conflict (service_date, payer, reason_code) do update set
    claims = t.claims + excluded.claims, paid_claims = t.paid_claims + excluded.paid_claims,
    denied_claims = t.denied_claims + excluded.denied_claims
  returning 1
)
select (select count(*) from daily) + (select count(*) from receivables) + (select count(*) from receivables_by_provider)
  + (select count(*) from denials)
  + (select count(*) from by_status) + (select count(*) from by_day)
$tpl$, source)
$fn$;
--> statement-breakpoint
-- Collections: each payment adds its amount to its received_on day and to the provider of its claim (0 when
-- it is on no claim, or on a claim that no longer exists: the raw query joins claims).
CREATE OR REPLACE FUNCTION analytics_collections_delta_sql(source text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT format($tpl$
insert into analytics_daily as t (day, provider_id, collections_cents)
select p.received_on, coalesce(c.provider_id, 0), sum(p.sign * p.amount_cents::bigint)
from (%s) p left join claims c on c.id = p.claim_id
group by p.received_on, coalesce(c.provider_id, 0)
having sum(p.sign * p.amount_cents::bigint) <> 0
order by 1, 2
on conflict (day, provider_id) do update set collections_cents = t.collections_cents + excluded.collections_cents
$tpl$, source)
$fn$;
--> statement-breakpoint
-- Patient payments (sources patient and guest) per claim, for the claims named by `claim_ids` (a query).
CREATE OR REPLACE FUNCTION analytics_patient_paid_sql(claim_ids text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT format($tpl$(select claim_id, sum(amount_cents)::bigint as cents from payments
  where source in ('patient', 'guest') and claim_id in (%s) group by claim_id)$tpl$, claim_ids)
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_rebuild_rollups() RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  TRUNCATE analytics_daily, analytics_ar_daily, analytics_ar_provider, analytics_denials_daily, claims_status_rollup, claims_daily_rollup;
  EXECUTE analytics_rollup_delta_sql($src$
    select 1 as sign, c.*, coalesce(pp.cents, 0) as pp
    from claims c left join (select claim_id, sum(amount_cents)::bigint as cents from payments
      where source in ('patient', 'guest') and claim_id is not null group by claim_id) pp on pp.claim_id = c.id
  $src$);
  EXECUTE analytics_collections_delta_sql('select 1 as sign, * from payments');
END;
$fn$;
--> statement-breakpoint
-- Claims inserted or updated: + new rows − old rows. A claims statement does not change payments, so the
-- patient payments of both versions are today's. A new claim has no payments yet.
CREATE OR REPLACE FUNCTION analytics_claims_rollup() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE analytics_rollup_delta_sql('select 1 as sign, n.*, 0::bigint as pp from new_rows n');
  ELSE
    EXECUTE analytics_rollup_delta_sql(format($src$
      select 1 as sign, n.*, coalesce(pp.cents, 0) as pp from new_rows n left join %1$s pp on pp.claim_id = n.id
      union all
      select -1, o.*, coalesce(pp.cents, 0) from old_rows o left join %1$s pp on pp.claim_id = o.id
    $src$, analytics_patient_paid_sql('select id from new_rows')));
    -- A claim that changes provider takes its payments' collections along.
    INSERT INTO analytics_daily AS t (day, provider_id, collections_cents)
    SELECT p.received_on, x.provider_id, sum(x.sign * p.amount_cents::bigint)
    FROM new_rows n JOIN old_rows o ON o.id = n.id AND o.provider_id <> n.provider_id
      JOIN payments p ON p.claim_id = n.id
      CROSS JOIN LATERAL (VALUES (n.provider_id, 1), (o.provider_id, -1)) x(provider_id, sign)
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (day, provider_id) DO UPDATE SET collections_cents = t.collections_cents + excluded.collections_cents;
  END IF;
  RETURN NULL;
END;
$fn$;
--> statement-breakpoint
-- A claim about to be deleted: − its contribution with its payments as they are now, and its payments'
-- collections move to provider 0 (after the delete they are on no existing claim; ON DELETE SET NULL follows).
-- A row trigger BEFORE the delete sees the claim and its payments intact, whatever order the cascades run in.
CREATE OR REPLACE FUNCTION analytics_claims_rollup_delete() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  EXECUTE analytics_rollup_delta_sql(format($src$
    select -1 as sign, c.*, coalesce((select sum(amount_cents) from payments
      where claim_id = c.id and source in ('patient', 'guest')), 0)::bigint as pp
    from claims c where c.id = %s
  $src$, OLD.id));
  INSERT INTO analytics_daily AS t (day, provider_id, collections_cents)
  SELECT p.received_on, x.provider_id, sum(x.sign * p.amount_cents::bigint)
  FROM payments p CROSS JOIN LATERAL (VALUES (0, 1), (OLD.provider_id, -1)) x(provider_id, sign)
  WHERE p.claim_id = OLD.id
  GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (day, provider_id) DO UPDATE SET collections_cents = t.collections_cents + excluded.collections_cents;
  RETURN OLD;
END;
$fn$;
--> statement-breakpoint
-- Deleting a patient cascades to their claims and their payments in one statement, and the after-triggers
-- of cascaded deletes run only at the end of it, in no set order. Deleting the patient's claims first, in
-- a statement of their own, lets each claim leave the rollups while its payments are still there.
CREATE OR REPLACE FUNCTION analytics_patients_delete_claims_first() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM claims WHERE patient_id = OLD.id;
  RETURN OLD;
END;
$fn$;
--> statement-breakpoint
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
--> statement-breakpoint
-- TRUNCATE fires no row triggers: the rollups are recomputed (empty after the reset's TRUNCATE).
CREATE OR REPLACE FUNCTION analytics_rollups_after_truncate() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM analytics_rebuild_rollups();
  RETURN NULL;
END;
$fn$;
--> statement-breakpoint
CREATE TRIGGER analytics_claims_rollup_insert AFTER INSERT ON claims
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_claims_rollup();
--> statement-breakpoint
CREATE TRIGGER analytics_claims_rollup_update AFTER UPDATE ON claims
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_claims_rollup();
--> statement-breakpoint
CREATE TRIGGER analytics_claims_rollup_delete BEFORE DELETE ON claims
  FOR EACH ROW EXECUTE FUNCTION analytics_claims_rollup_delete();
--> statement-breakpoint
CREATE TRIGGER analytics_claims_rollup_truncate AFTER TRUNCATE ON claims
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_rollups_after_truncate();
--> statement-breakpoint
CREATE TRIGGER analytics_patients_delete_claims_first BEFORE DELETE ON patients
  FOR EACH ROW EXECUTE FUNCTION analytics_patients_delete_claims_first();
--> statement-breakpoint
CREATE TRIGGER analytics_payments_rollup_insert AFTER INSERT ON payments
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_payments_rollup();
--> statement-breakpoint
CREATE TRIGGER analytics_payments_rollup_update AFTER UPDATE ON payments
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_payments_rollup();
--> statement-breakpoint
CREATE TRIGGER analytics_payments_rollup_delete AFTER DELETE ON payments
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_payments_rollup();
--> statement-breakpoint
CREATE TRIGGER analytics_payments_rollup_truncate AFTER TRUNCATE ON payments
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_rollups_after_truncate();
--> statement-breakpoint
-- Existing databases start with exact rollups.
SELECT analytics_rebuild_rollups();
