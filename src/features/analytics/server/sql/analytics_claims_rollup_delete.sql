-- The current definition of analytics_claims_rollup_delete, last (re)defined by drizzle/0015_dashboard_payer_encounter_rollups.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
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
  -- Its payer payments leave Payer Performance (the raw query joins claims).
  INSERT INTO billing_payer_daily AS t (day, payer, payer_collections_cents)
  SELECT p.received_on, OLD.payer, -sum(p.amount_cents::bigint)
  FROM payments p WHERE p.claim_id = OLD.id AND p.source = 'payer'
  GROUP BY 1 ORDER BY 1
  ON CONFLICT (day, payer) DO UPDATE SET payer_collections_cents = t.payer_collections_cents + excluded.payer_collections_cents;
  RETURN OLD;
END;
$fn$;
