ALTER TABLE "claims" ADD COLUMN "handed_on_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "prior_payers_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_other_payers_check" CHECK ("claims"."handed_on_cents" >= 0 and "claims"."prior_payers_cents" >= 0);
--> statement-breakpoint
-- hand-written below
-- A visit billed to two policies is two claims with the same charge (docs/x12-837.md "After another payer"). Its
-- charge and what is owed on it now count once: the first claim's balance, once the next policy is billed for it,
-- is handed on (handed_on_cents) and leaves that claim's balance and A/R; the new claim owes only what the earlier
-- payers left (prior_payers_cents is what they settled) until its payer answers with that part as CARC 23 in its
-- contractual adjustment; and the charges cohort (claims and billed per service date) leaves the new claim out.
-- The same expressions as claimChargeLeftSql and capturedChargeSql (claims.formulas.ts, claims.summary.queries.ts).
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
      sum(sign * (status in ('Paid', 'Partially Paid'))::int) as b, sum(sign * denied_on_first_adjudication::int) as c,
      sum(sign * billed_cents::bigint) as d, 0 as e, 0 as f, 0 as g, 0 as h, 0 as i, 0 as j, 0 as k,
      0 as l, 0 as m, 0 as n, 0 as o
    from s where primary_claim_id is null group by service_date, provider_id
    union all
    -- submitted: submitted_on
    select submitted_on, provider_id, 0, 0, 0, 0, sum(sign), sum(sign * clean_submission::int),
      sum(sign * (submitted_on - service_date)), 0, 0, 0, 0, 0, 0, 0, 0
    from s where submitted_on is not null group by submitted_on, provider_id
    union all
    -- adjudicated: adjudicated_on, with the patient payments received on the claim to date
    select adjudicated_on, provider_id, 0, 0, 0, 0, 0, 0, 0, sum(sign), sum(sign * denied_on_first_adjudication::int),
      sum(sign * (clean_submission and not denied_on_first_adjudication
        and paid_cents + contractual_adjustment_cents + patient_responsibility_cents >= billed_cents)::int),
      sum(sign * (paid_cents + pp)), sum(sign * (billed_cents - contractual_adjustment_cents)),
      sum(sign * least(pp, patient_responsibility_cents)), sum(sign * patient_responsibility_cents::bigint), 0
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
  select sign, service_date, provider_id, status,
    greatest(0, billed_cents - paid_cents - greatest(contractual_adjustment_cents, prior_payers_cents)
      - handed_on_cents - pp)::bigint as outstanding
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
    -- Paid or Partially Paid (charges), Paid (claims per day), Written Off (revenue lost, open A/R), Denied or
    -- Appealed (open denials) and Draft (open A/R, which reads only claims submitted): a move that keeps every
    -- one of those the same (an appeal, Denied to Appealed; a clearinghouse acceptance, Submitted to
    -- Accepted; the scrub's Draft to Ready of a claim never submitted) moves the claim there alone.
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
          -- submitted_on is the same in both rows here (the test above).
          WHEN (n.status IN ('Paid', 'Partially Paid'), n.status = 'Paid', n.status = 'Written Off',
              n.status IN ('Denied', 'Appealed'), n.status = 'Draft' AND n.submitted_on IS NOT NULL)
            = (o.status IN ('Paid', 'Partially Paid'), o.status = 'Paid', o.status = 'Written Off',
              o.status IN ('Denied', 'Appealed'), o.status = 'Draft' AND o.submitted_on IS NOT NULL) THEN 'status'
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
CREATE OR REPLACE FUNCTION analytics_rebuild_rollups() RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  TRUNCATE analytics_daily, analytics_ar_daily, analytics_ar_provider, analytics_denials_daily, claims_status_rollup,
    claims_daily_rollup, billing_payer_daily;
  EXECUTE analytics_rollup_delta_sql($src$
    select 1 as sign, c.service_date, c.submitted_on, c.adjudicated_on, c.resolved_on, c.provider_id, c.payer,
      c.status, c.reason_code, c.denial_description, c.billed_cents, c.paid_cents, c.contractual_adjustment_cents,
      c.patient_responsibility_cents, c.clean_submission, c.denied_on_first_adjudication, c.voided_at,
      c.primary_claim_id, c.handed_on_cents, c.prior_payers_cents,
      coalesce(pp.cents, 0) as pp
    from claims c left join (select claim_id, sum(amount_cents)::bigint as cents from payments
      where source in ('patient', 'guest') and claim_id is not null group by claim_id) pp on pp.claim_id = c.id
  $src$);
  EXECUTE analytics_collections_delta_sql('select 1 as sign, * from payments');
  PERFORM analytics_rebuild_encounters_rollup();
  PERFORM analytics_rebuild_visits_rollup();
  PERFORM authorizations_rebuild_status_rollup();
  PERFORM patients_rebuild_count_rollup();
END;
$fn$;
--> statement-breakpoint
-- The claims already billed after another: their first claims hand on what their payers left, they owe what those
-- payers left, and the rollups are rebuilt from them (only when there are such claims: a rebuild at 1M claims takes
-- tens of seconds).
UPDATE claims p SET handed_on_cents = greatest(0, p.billed_cents - p.paid_cents - p.contractual_adjustment_cents)
  WHERE p.id IN (SELECT l.primary_claim_id FROM claims l WHERE l.primary_claim_id IS NOT NULL AND l.voided_at IS NULL);--> statement-breakpoint
UPDATE claims l SET prior_payers_cents = least(l.billed_cents, p.paid_cents + p.contractual_adjustment_cents)
  FROM claims p WHERE l.primary_claim_id IS NOT NULL AND p.id = l.primary_claim_id;--> statement-breakpoint
DO $$ BEGIN
  IF EXISTS (SELECT 1 FROM claims WHERE primary_claim_id IS NOT NULL) THEN
    PERFORM analytics_rebuild_rollups();
  END IF;
END $$;
