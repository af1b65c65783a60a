-- The current definition of analytics_claims_rollup, last (re)defined by drizzle/0015_dashboard_payer_encounter_rollups.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
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
