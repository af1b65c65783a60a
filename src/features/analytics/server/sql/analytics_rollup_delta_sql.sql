-- The current definition of analytics_rollup_delta_sql, last (re)defined by drizzle/0062_ar_keeps_reopened_claims.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- A statement's claims (`source`: rows of claims with a sign, + new, − old) as the SQL that adds their
-- contribution to every claims rollup: the one definition the triggers and the full rebuild both use. A
-- voided claim (`voided_at` set) contributes nothing, so voiding one takes it out of every rollup.
CREATE OR REPLACE FUNCTION analytics_rollup_delta_sql(source text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT format($tpl$
with s as materialized (select * from (%s) src where src.voided_at is null),
daily as (
  insert into analytics_daily as t (day, provider_id, charge_claims, charge_paid_claims, charge_denied_claims,
    charge_billed_cents, submitted_claims, submitted_clean_claims, submitted_cycle_days, adjudicated_claims,
    adjudicated_denied_claims, adjudicated_first_pass_claims, adjudicated_collected_cents,
    adjudicated_collectible_cents, adjudicated_patient_collected_cents, adjudicated_patient_billed_cents,
    written_off_lost_cents)
  select day, provider_id, sum(a), sum(b), sum(c), sum(d), sum(e), sum(f), sum(g), sum(h), sum(i), sum(j), sum(k),
    sum(l), sum(m), sum(n), sum(o)
  from (
    -- Each part is summed on its own first (only its own figures, over only its own claims), then the
    -- parts are added up per day and provider: a rebuild over a million claims then sums each claim's
    -- figures once rather than 15 figures, mostly zeros, for each of a claim's parts.
    -- charges: the service date, a visit's charge once (a claim billed after another's is not a new charge)
    select service_date as day, provider_id, sum(sign) as a,
      sum(sign * (status in ('Paid', 'Closed', 'Partially Paid'))::int) as b, sum(sign * denied_on_first_adjudication::int) as c,
      sum(sign * billed_cents::bigint) as d, 0 as e, 0 as f, 0 as g, 0 as h, 0 as i, 0 as j, 0 as k,
      0 as l, 0 as m, 0 as n, 0 as o
    from s where primary_claim_id is null group by service_date, provider_id
    union all
    -- submitted: submitted_on
    select submitted_on, provider_id, 0, 0, 0, 0, sum(sign), sum(sign * clean_submission::int),
      sum(sign * (submitted_on - service_date)), 0, 0, 0, 0, 0, 0, 0, 0
    from s where submitted_on is not null group by submitted_on, provider_id
    union all
    -- adjudicated: adjudicated_on, with the patient payments received on the claim to date. What is collectible
    -- and the patient's share leave out a balance handed on to the next policy (claimCollectibleSql,
    -- claimPatientBilledSql): the next payer's claim counts it, once.
    select adjudicated_on, provider_id, 0, 0, 0, 0, 0, 0, 0, sum(sign), sum(sign * denied_on_first_adjudication::int),
      sum(sign * (clean_submission and not denied_on_first_adjudication
        and paid_cents + contractual_adjustment_cents + patient_responsibility_cents >= billed_cents)::int),
      sum(sign * (paid_cents + pp)),
      sum(sign * (billed_cents - greatest(contractual_adjustment_cents, prior_payers_cents) - handed_on_cents)),
      sum(sign * least(pp, greatest(0, patient_responsibility_cents - handed_on_cents))),
      sum(sign * greatest(0, patient_responsibility_cents - handed_on_cents)::bigint), 0
    from s where adjudicated_on is not null group by adjudicated_on, provider_id
    union all
    -- revenue lost: written off on resolved_on
    select resolved_on, provider_id, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      sum(sign * greatest(0, billed_cents - paid_cents - greatest(contractual_adjustment_cents, prior_payers_cents)
      - handed_on_cents - pp))
    from s where status = 'Written Off' and resolved_on is not null group by resolved_on, provider_id
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
  -- A submitted claim reopened as a Draft (to be corrected or voided at the payer) is still owed.
  select sign, service_date, provider_id, status,
    greatest(0, billed_cents - paid_cents - greatest(contractual_adjustment_cents, prior_payers_cents)
      - handed_on_cents - pp)::bigint as outstanding
  from s where resolved_on is null and submitted_on is not null and status <> 'Written Off'
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
  select service_date, payer, reason_code, sum(sign), sum(sign * (status in ('Paid', 'Closed'))::int),
    sum(sign * denied_on_first_adjudication::int)
  from s
  group by service_date, payer, reason_code
  having sum(sign) <> 0 or sum(sign * (status in ('Paid', 'Closed'))::int) <> 0 or sum(sign * denied_on_first_adjudication::int) <> 0
  order by service_date, payer, reason_code
  on conflict (service_date, payer, reason_code) do update set
    claims = t.claims + excluded.claims, paid_claims = t.paid_claims + excluded.paid_claims,
    denied_claims = t.denied_claims + excluded.denied_claims
  returning 1
),
by_payer as (
  -- Payer Performance (billing): claims adjudicated per day and payer, and of them those denied on first adjudication.
  insert into billing_payer_daily as t (day, payer, adjudicated_claims, denied_claims)
  select adjudicated_on, payer, sum(sign), sum(sign * denied_on_first_adjudication::int)
  from s where adjudicated_on is not null
  group by adjudicated_on, payer
  having sum(sign) <> 0 or sum(sign * denied_on_first_adjudication::int) <> 0
  order by adjudicated_on, payer
  on conflict (day, payer) do update set
    adjudicated_claims = t.adjudicated_claims + excluded.adjudicated_claims,
    denied_claims = t.denied_claims + excluded.denied_claims
  returning 1
)
select (select count(*) from daily) + (select count(*) from receivables) + (select count(*) from receivables_by_provider)
  + (select count(*) from denials)
  + (select count(*) from by_status) + (select count(*) from by_day) + (select count(*) from by_payer)
$tpl$, source)
$fn$;
