-- Outstanding A/R keeps a submitted claim reopened as a Draft (to be corrected, or voided at the payer): it is
-- owed until the payer answers. Before, the rule left out every Draft, so a claim left A/R while being corrected
-- and came back once scrubbed Ready. The rollups' rule (analytics_rollup_delta_sql) and the claims trigger's
-- short path for status-only moves (analytics_claims_rollup, which no longer needs to tell a submitted Draft
-- apart) change with it.
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
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_claims_rollup() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  changed int[];
  status_only int[];
  moved_provider boolean;
  moved_payer boolean;
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE analytics_rollup_delta_sql('select 1 as sign, n.*, 0::bigint as pp from new_rows n');
  ELSE
    -- The updated claims whose rollup figures can have changed: those where a column the rollups read
    -- (analytics_rollup_delta_sql, and provider and payer for the moves below) differs between the old and
    -- the new row; clean_submission is read only for a claim submitted or adjudicated, so it counts only
    -- there. Any other claim adds the same figures once with +1 and once with -1, which cancel: leaving it out
    -- changes nothing but the work (an edit of diagnoses or place of service, a re-scrub that keeps Draft).
    -- A claim whose only change is its status changes one figure when the other rollups cannot tell the two
    -- statuses apart: its count per status (claims_status_rollup). The other rollups read the status only as
    -- Paid, Closed or Partially Paid (charges), Paid or Closed (claims per day), Written Off (revenue lost,
    -- open A/R) and Denied or Appealed (open denials): a move that keeps every one of those the same (an
    -- appeal, Denied to Appealed; a clearinghouse acceptance, Submitted to Accepted; the scrub's Draft to
    -- Ready; a claim reopened as a Draft to be corrected; a paid claim settled, Paid to Closed) moves the claim
    -- there alone.
    EXECUTE $q$
      SELECT array_agg(k.id) FILTER (WHERE k.kind = 'rollups'), array_agg(k.id) FILTER (WHERE k.kind = 'status'),
        coalesce(bool_or(k.moved_provider), false), coalesce(bool_or(k.moved_payer), false)
      FROM (
        SELECT n.id, n.provider_id <> o.provider_id AS moved_provider, n.payer <> o.payer AS moved_payer, CASE
          WHEN (n.service_date, n.provider_id, n.payer, n.reason_code, n.denial_description,
              n.denied_on_first_adjudication, n.submitted_on, n.adjudicated_on, n.resolved_on, n.billed_cents,
              n.paid_cents, n.contractual_adjustment_cents, n.patient_responsibility_cents, n.voided_at IS NULL,
              n.handed_on_cents, n.prior_payers_cents, n.primary_claim_id,
              n.clean_submission AND (n.submitted_on IS NOT NULL OR n.adjudicated_on IS NOT NULL))
            IS DISTINCT FROM (o.service_date, o.provider_id, o.payer, o.reason_code, o.denial_description,
              o.denied_on_first_adjudication, o.submitted_on, o.adjudicated_on, o.resolved_on, o.billed_cents,
              o.paid_cents, o.contractual_adjustment_cents, o.patient_responsibility_cents, o.voided_at IS NULL,
              o.handed_on_cents, o.prior_payers_cents, o.primary_claim_id,
              o.clean_submission AND (o.submitted_on IS NOT NULL OR o.adjudicated_on IS NOT NULL)) THEN 'rollups'
          WHEN n.status = o.status THEN NULL
          WHEN (n.status IN ('Paid', 'Closed', 'Partially Paid'), n.status IN ('Paid', 'Closed'), n.status = 'Written Off',
              n.status IN ('Denied', 'Appealed'))
            = (o.status IN ('Paid', 'Closed', 'Partially Paid'), o.status IN ('Paid', 'Closed'), o.status = 'Written Off',
              o.status IN ('Denied', 'Appealed')) THEN 'status'
          ELSE 'rollups'
        END AS kind
        FROM new_rows n JOIN old_rows o ON o.id = n.id
      ) k
    $q$ INTO changed, status_only, moved_provider, moved_payer;
    IF status_only IS NOT NULL THEN
      -- Every other column the rollup groups or sums is the same in the old row and the new one.
      EXECUTE $q$
        INSERT INTO claims_status_rollup AS t (payer, status, reason_code, denied_on_first_adjudication, claims,
          billed_cents, paid_cents)
        SELECT n.payer, x.status, n.reason_code, n.denied_on_first_adjudication, sum(x.sign),
          sum(x.sign * n.billed_cents::bigint), sum(x.sign * n.paid_cents::bigint)
        FROM new_rows n JOIN unnest($1::int[]) u(id) ON u.id = n.id JOIN old_rows o ON o.id = n.id
          CROSS JOIN LATERAL (VALUES (n.status, 1), (o.status, -1)) x(status, sign)
        WHERE n.voided_at IS NULL
        GROUP BY n.payer, x.status, n.reason_code, n.denied_on_first_adjudication
        HAVING sum(x.sign) <> 0 OR sum(x.sign * n.billed_cents::bigint) <> 0 OR sum(x.sign * n.paid_cents::bigint) <> 0
        ORDER BY n.payer, x.status, n.reason_code, n.denied_on_first_adjudication
        ON CONFLICT (payer, status, reason_code, denied_on_first_adjudication) DO UPDATE SET
          claims = t.claims + excluded.claims, billed_cents = t.billed_cents + excluded.billed_cents,
          paid_cents = t.paid_cents + excluded.paid_cents
      $q$ USING status_only;
    END IF;
    IF changed IS NULL THEN
      RETURN NULL;
    END IF;
    EXECUTE analytics_rollup_delta_sql(format($src$
      select 1 as sign, n.*, coalesce(pp.cents, 0) as pp
      from new_rows n join unnest($1::int[]) c(id) on c.id = n.id left join %1$s pp on pp.claim_id = n.id
      union all
      select -1, o.*, coalesce(pp.cents, 0)
      from old_rows o join unnest($1::int[]) c(id) on c.id = o.id left join %1$s pp on pp.claim_id = o.id
    $src$, analytics_patient_paid_sql('select unnest($1::int[])'))) USING changed;
    -- A claim that changes provider takes its payments' collections along.
    IF moved_provider THEN
      EXECUTE $q$
        INSERT INTO analytics_daily AS t (day, provider_id, collections_cents)
        SELECT p.received_on, x.provider_id, sum(x.sign * p.amount_cents::bigint)
        FROM new_rows n JOIN old_rows o ON o.id = n.id AND o.provider_id <> n.provider_id
          JOIN payments p ON p.claim_id = n.id
          CROSS JOIN LATERAL (VALUES (n.provider_id, 1), (o.provider_id, -1)) x(provider_id, sign)
        GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (day, provider_id) DO UPDATE SET collections_cents = t.collections_cents + excluded.collections_cents
      $q$;
    END IF;
    -- A claim that changes payer takes its payer payments along (Payer Performance).
    IF moved_payer THEN
      EXECUTE $q$
        INSERT INTO billing_payer_daily AS t (day, payer, payer_collections_cents)
        SELECT p.received_on, x.payer, sum(x.sign * p.amount_cents::bigint)
        FROM new_rows n JOIN old_rows o ON o.id = n.id AND o.payer <> n.payer
          JOIN payments p ON p.claim_id = n.id AND p.source = 'payer'
          CROSS JOIN LATERAL (VALUES (n.payer, 1), (o.payer, -1)) x(payer, sign)
        GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (day, payer) DO UPDATE SET payer_collections_cents = t.payer_collections_cents + excluded.payer_collections_cents
      $q$;
    END IF;
  END IF;
  RETURN NULL;
END;
$fn$;
--> statement-breakpoint
-- Only a practice with a submitted claim reopened as a Draft has figures to correct: rebuild the rollups then (a
-- rebuild at 1M claims takes tens of seconds).
DO $$ BEGIN
  IF EXISTS (SELECT 1 FROM claims WHERE status = 'Draft' AND submitted_on IS NOT NULL AND voided_at IS NULL) THEN
    PERFORM analytics_rebuild_rollups();
  END IF;
END $$;
