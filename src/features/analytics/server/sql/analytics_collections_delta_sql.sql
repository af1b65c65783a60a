-- The current definition of analytics_collections_delta_sql, last (re)defined by drizzle/0015_dashboard_payer_encounter_rollups.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- Collections: each payment adds its amount to its received_on day and to the provider of its claim (0 when
-- it is on no claim, or on a claim that no longer exists: the raw query joins claims); a payer payment on a
-- claim also adds to that claim's payer (Payer Performance).
CREATE OR REPLACE FUNCTION analytics_collections_delta_sql(source text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT format($tpl$
with p as materialized (
  select p.sign, p.received_on, p.amount_cents, p.source, c.provider_id, c.payer
  from (%s) p left join claims c on c.id = p.claim_id
),
daily as (
  insert into analytics_daily as t (day, provider_id, collections_cents)
  select received_on, coalesce(provider_id, 0), sum(sign * amount_cents::bigint)
  from p
  group by received_on, coalesce(provider_id, 0)
  having sum(sign * amount_cents::bigint) <> 0
  order by 1, 2
  on conflict (day, provider_id) do update set collections_cents = t.collections_cents + excluded.collections_cents
  returning 1
),
by_payer as (
  insert into billing_payer_daily as t (day, payer, payer_collections_cents)
  select received_on, payer, sum(sign * amount_cents::bigint)
  from p where source = 'payer' and payer is not null
  group by received_on, payer
  having sum(sign * amount_cents::bigint) <> 0
  order by 1, 2
  on conflict (day, payer) do update set payer_collections_cents = t.payer_collections_cents + excluded.payer_collections_cents
  returning 1
)
select (select count(*) from daily) + (select count(*) from by_payer)
$tpl$, source)
$fn$;
