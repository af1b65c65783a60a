-- The current definition of analytics_claims_rollup, last (re)defined by drizzle/0062_ar_keeps_reopened_claims.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
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
