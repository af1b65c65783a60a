-- The current definition of analytics_patient_paid_sql, last (re)defined by drizzle/0010_analytics_rollup_triggers.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- Patient payments (sources patient and guest) per claim, for the claims named by `claim_ids` (a query).
CREATE OR REPLACE FUNCTION analytics_patient_paid_sql(claim_ids text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT format($tpl$(select claim_id, sum(amount_cents)::bigint as cents from payments
  where source in ('patient', 'guest') and claim_id in (%s) group by claim_id)$tpl$, claim_ids)
$fn$;
