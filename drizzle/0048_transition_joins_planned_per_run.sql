-- Statement triggers join their transition tables (old_rows, new_rows) by id. PL/pgSQL keeps one plan per
-- static statement for the life of a connection, made for the transition tables' sizes at its first run: a
-- connection whose first write of a claim was one row kept a nested loop, and a later write of 3,000 claims
-- through it compared every old row with every new one (5.3 s for what a hash join does in 26 ms; measured in
-- analytics.rollup.test.ts). Those joins now run through EXECUTE, planned each time for the rows at hand. A
-- write that moves no claim between providers or payers no longer runs the two statements that move collections.
CREATE OR REPLACE FUNCTION analytics_claims_rollup() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  changed int[];
  unsent int[];
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
    -- A claim never submitted that only moves between Draft and Ready (the scrub's move) changes one figure:
    -- its count per status. Of all the rollups only claims_status_rollup tells Draft from Ready (open A/R
    -- reads claims submitted, charges and claims per day only Paid), so such claims move there alone.
    EXECUTE $q$
      SELECT array_agg(k.id) FILTER (WHERE k.kind = 'rollups'), array_agg(k.id) FILTER (WHERE k.kind = 'unsent'),
        coalesce(bool_or(k.moved_provider), false), coalesce(bool_or(k.moved_payer), false)
      FROM (
        SELECT n.id, n.provider_id <> o.provider_id AS moved_provider, n.payer <> o.payer AS moved_payer, CASE
          WHEN (n.service_date, n.provider_id, n.payer, n.reason_code, n.denial_description,
              n.denied_on_first_adjudication, n.submitted_on, n.adjudicated_on, n.resolved_on, n.billed_cents,
              n.paid_cents, n.contractual_adjustment_cents, n.patient_responsibility_cents, n.voided_at IS NULL,
              n.clean_submission AND (n.submitted_on IS NOT NULL OR n.adjudicated_on IS NOT NULL))
            IS DISTINCT FROM (o.service_date, o.provider_id, o.payer, o.reason_code, o.denial_description,
              o.denied_on_first_adjudication, o.submitted_on, o.adjudicated_on, o.resolved_on, o.billed_cents,
              o.paid_cents, o.contractual_adjustment_cents, o.patient_responsibility_cents, o.voided_at IS NULL,
              o.clean_submission AND (o.submitted_on IS NOT NULL OR o.adjudicated_on IS NOT NULL)) THEN 'rollups'
          WHEN n.status = o.status THEN NULL
          WHEN n.status IN ('Draft', 'Ready') AND o.status IN ('Draft', 'Ready') AND n.submitted_on IS NULL
            AND n.adjudicated_on IS NULL AND n.resolved_on IS NULL THEN 'unsent'
          ELSE 'rollups'
        END AS kind
        FROM new_rows n JOIN old_rows o ON o.id = n.id
      ) k
    $q$ INTO changed, unsent, moved_provider, moved_payer;
    IF unsent IS NOT NULL THEN
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
      $q$ USING unsent;
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
CREATE OR REPLACE FUNCTION analytics_visits_on_claims() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  days date[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM analytics_visits_daily_refresh(ARRAY(SELECT service_date FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM analytics_visits_daily_refresh(ARRAY(SELECT service_date FROM old_rows));
  ELSE
    EXECUTE $q$
      SELECT ARRAY(
        SELECT n.service_date FROM new_rows n WHERE NOT EXISTS (SELECT 1 FROM old_rows o
          WHERE o.id = n.id AND o.patient_id = n.patient_id AND o.service_date = n.service_date)
        UNION ALL
        SELECT o.service_date FROM old_rows o WHERE NOT EXISTS (SELECT 1 FROM new_rows n
          WHERE n.id = o.id AND n.patient_id = o.patient_id AND n.service_date = o.service_date))
    $q$ INTO days;
    PERFORM analytics_visits_daily_refresh(days);
  END IF;
  RETURN NULL;
END;
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_visits_on_appointments() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  days date[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM analytics_visits_daily_refresh(ARRAY(SELECT date FROM new_rows WHERE status = 'Completed'));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM analytics_visits_daily_refresh(ARRAY(SELECT date FROM old_rows WHERE status = 'Completed'));
  ELSE
    EXECUTE $q$
      SELECT ARRAY(
        SELECT n.date FROM new_rows n WHERE n.status = 'Completed' AND NOT EXISTS (SELECT 1 FROM old_rows o
          WHERE o.id = n.id AND o.status = n.status AND o.date = n.date AND o.patient_id = n.patient_id)
        UNION ALL
        SELECT o.date FROM old_rows o WHERE o.status = 'Completed' AND NOT EXISTS (SELECT 1 FROM new_rows n
          WHERE n.id = o.id AND n.status = o.status AND n.date = o.date AND n.patient_id = o.patient_id))
    $q$ INTO days;
    PERFORM analytics_visits_daily_refresh(days);
  END IF;
  RETURN NULL;
END;
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION open_follow_ups_on_encounters() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  patient_ids int[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM open_follow_ups;
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM open_follow_ups_refresh(ARRAY(SELECT DISTINCT patient_id FROM new_rows WHERE patient_id IS NOT NULL));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM open_follow_ups_refresh(ARRAY(SELECT DISTINCT patient_id FROM old_rows WHERE patient_id IS NOT NULL));
  ELSE
    -- Only the columns the set is made of (the chief complaint, type or charges do not matter).
    EXECUTE $q$
      SELECT ARRAY(
        SELECT x.patient_id FROM old_rows o JOIN new_rows n ON n.id = o.id
          CROSS JOIN LATERAL (VALUES (o.patient_id), (n.patient_id)) x(patient_id)
        WHERE (o.patient_id, o.provider_id, o.encounter_date, o.follow_up_due, o.diagnosis)
          IS DISTINCT FROM (n.patient_id, n.provider_id, n.encounter_date, n.follow_up_due, n.diagnosis)
        UNION SELECT patient_id FROM old_rows WHERE id NOT IN (SELECT id FROM new_rows)
        UNION SELECT patient_id FROM new_rows WHERE id NOT IN (SELECT id FROM old_rows))
    $q$ INTO patient_ids;
    PERFORM open_follow_ups_refresh(patient_ids);
  END IF;
  RETURN NULL;
END;
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION open_follow_ups_on_appointments() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  patient_ids int[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM open_follow_ups_rebuild();
  ELSIF TG_OP = 'INSERT' THEN
    -- A Cancelled or No-Show booking closes nothing.
    PERFORM open_follow_ups_refresh(ARRAY(SELECT DISTINCT patient_id FROM new_rows
      WHERE status NOT IN ('Cancelled', 'No-Show')));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM open_follow_ups_refresh(ARRAY(SELECT DISTINCT patient_id FROM old_rows
      WHERE status NOT IN ('Cancelled', 'No-Show')));
  ELSE
    EXECUTE $q$
      SELECT ARRAY(
        SELECT x.patient_id FROM old_rows o JOIN new_rows n ON n.id = o.id
          CROSS JOIN LATERAL (VALUES (o.patient_id), (n.patient_id)) x(patient_id)
        WHERE (o.patient_id, o.date, o.status) IS DISTINCT FROM (n.patient_id, n.date, n.status)
        UNION SELECT patient_id FROM old_rows WHERE id NOT IN (SELECT id FROM new_rows)
        UNION SELECT patient_id FROM new_rows WHERE id NOT IN (SELECT id FROM old_rows))
    $q$ INTO patient_ids;
    PERFORM open_follow_ups_refresh(patient_ids);
  END IF;
  RETURN NULL;
END;
$fn$;
