-- The current definition of analytics_rebuild_rollups, last (re)defined by drizzle/0054_claims_other_payers.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
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
