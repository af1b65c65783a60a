-- The claims rollup trigger (analytics_claims_rollup) leaves out the updated claims whose rollup columns did not
-- change, and does nothing for an update that changes none: their old and new rows cancel out. A batch scrub
-- of Draft claims (their first-scrub fact, a status that stays Draft) and edits of columns no rollup reads no
-- longer run the rollup statement over every updated row. Same figures (analytics.rollup.test.ts compares
-- the rollups with the raw answers after such updates).
CREATE OR REPLACE FUNCTION analytics_claims_rollup() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  changed int[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE analytics_rollup_delta_sql('select 1 as sign, n.*, 0::bigint as pp from new_rows n');
  ELSE
    -- The updated claims whose rollup figures can have changed: those where a column the rollups read
    -- (analytics_rollup_delta_sql, and provider and payer for the moves below) differs between the old and
    -- the new row; clean_submission is read only for a claim submitted or adjudicated, so it counts only
    -- there. Any other claim adds the same figures once with +1 and once with -1, which cancel: leaving it out
    -- changes nothing but the work (a batch scrub of Draft claims, an edit of diagnoses or place of service).
    SELECT array_agg(n.id) INTO changed
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.service_date, n.provider_id, n.payer, n.status, n.reason_code, n.denial_description,
        n.denied_on_first_adjudication, n.submitted_on, n.adjudicated_on, n.resolved_on, n.billed_cents,
        n.paid_cents, n.contractual_adjustment_cents, n.patient_responsibility_cents, n.voided_at IS NULL,
        n.clean_submission AND (n.submitted_on IS NOT NULL OR n.adjudicated_on IS NOT NULL))
      IS DISTINCT FROM (o.service_date, o.provider_id, o.payer, o.status, o.reason_code, o.denial_description,
        o.denied_on_first_adjudication, o.submitted_on, o.adjudicated_on, o.resolved_on, o.billed_cents,
        o.paid_cents, o.contractual_adjustment_cents, o.patient_responsibility_cents, o.voided_at IS NULL,
        o.clean_submission AND (o.submitted_on IS NOT NULL OR o.adjudicated_on IS NOT NULL));
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
    INSERT INTO analytics_daily AS t (day, provider_id, collections_cents)
    SELECT p.received_on, x.provider_id, sum(x.sign * p.amount_cents::bigint)
    FROM new_rows n JOIN old_rows o ON o.id = n.id AND o.provider_id <> n.provider_id
      JOIN payments p ON p.claim_id = n.id
      CROSS JOIN LATERAL (VALUES (n.provider_id, 1), (o.provider_id, -1)) x(provider_id, sign)
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (day, provider_id) DO UPDATE SET collections_cents = t.collections_cents + excluded.collections_cents;
    -- A claim that changes payer takes its payer payments along (Payer Performance).
    INSERT INTO billing_payer_daily AS t (day, payer, payer_collections_cents)
    SELECT p.received_on, x.payer, sum(x.sign * p.amount_cents::bigint)
    FROM new_rows n JOIN old_rows o ON o.id = n.id AND o.payer <> n.payer
      JOIN payments p ON p.claim_id = n.id AND p.source = 'payer'
      CROSS JOIN LATERAL (VALUES (n.payer, 1), (o.payer, -1)) x(payer, sign)
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (day, payer) DO UPDATE SET payer_collections_cents = t.payer_collections_cents + excluded.payer_collections_cents;
  END IF;
  RETURN NULL;
END;
$fn$;
