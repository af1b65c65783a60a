CREATE TABLE "analytics_encounters_daily" (
	"encounter_date" date PRIMARY KEY NOT NULL,
	"encounters" bigint DEFAULT 0 NOT NULL,
	"charges_captured" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "authorizations_status_rollup" (
	"status" text PRIMARY KEY NOT NULL,
	"authorizations" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_payer_daily" (
	"day" date NOT NULL,
	"payer" text NOT NULL,
	"adjudicated_claims" bigint DEFAULT 0 NOT NULL,
	"denied_claims" bigint DEFAULT 0 NOT NULL,
	"payer_collections_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "billing_payer_daily_day_payer_pk" PRIMARY KEY("day","payer")
);
--> statement-breakpoint
CREATE TABLE "patients_count_rollup" (
	"one" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"patients" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "patients_count_rollup_one_row" CHECK ("patients_count_rollup"."one")
);
--> statement-breakpoint
CREATE INDEX "audit_log_actor_user_occurred_idx" ON "audit_log" USING btree ("actor_user_id","occurred_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "claims_newest_denials_idx" ON "claims" USING btree ("adjudicated_on" DESC NULLS LAST,"service_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE status = 'Denied';--> statement-breakpoint
-- More rollups for the KPIs' encounters, Payer Performance (billing) and the dashboard's
-- patient and authorization counts, kept exact IN THE SAME TRANSACTION as every write like those of 0010
-- (statement-level triggers over transition tables, increments applied with insert … on conflict do update);
-- indexes for the dashboard's newest denials and a role's own recent activity. docs/kpis.md "Rollups".
--
-- Claims and payments: the claim contribution of 0010 gains billing_payer_daily (claims adjudicated and denied
-- per day × payer), and a payment's collections gain the payer payments per received day × the claim's payer.
CREATE OR REPLACE FUNCTION analytics_rollup_delta_sql(source text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT format($tpl$
with s as materialized (%s),
daily as (
  insert into analytics_daily as t (day, provider_id, charge_claims, charge_paid_claims, charge_denied_claims,
    charge_billed_cents, submitted_claims, submitted_clean_claims, submitted_cycle_days, adjudicated_claims,
    adjudicated_denied_claims, adjudicated_first_pass_claims, adjudicated_collected_cents,
    adjudicated_collectible_cents, adjudicated_patient_collected_cents, adjudicated_patient_billed_cents,
    written_off_lost_cents)
  select day, provider_id, sum(a), sum(b), sum(c), sum(d), sum(e), sum(f), sum(g), sum(h), sum(i), sum(j), sum(k),
    sum(l), sum(m), sum(n), sum(o)
  from (
    -- charges: the service date
    select service_date as day, provider_id, sign as a,
      sign * (status in ('Paid', 'Partially Paid'))::int as b, sign * denied_on_first_adjudication::int as c,
      sign * billed_cents::bigint as d, 0 as e, 0 as f, 0 as g, 0 as h, 0 as i, 0 as j, 0::bigint as k,
      0::bigint as l, 0::bigint as m, 0::bigint as n, 0::bigint as o
    from s
    union all
    -- submitted: submitted_on
    select submitted_on, provider_id, 0, 0, 0, 0, sign, sign * clean_submission::int,
      sign * (submitted_on - service_date), 0, 0, 0, 0, 0, 0, 0, 0
    from s where submitted_on is not null
    union all
    -- adjudicated: adjudicated_on, with the patient payments received on the claim to date
    select adjudicated_on, provider_id, 0, 0, 0, 0, 0, 0, 0, sign, sign * denied_on_first_adjudication::int,
      sign * (clean_submission and not denied_on_first_adjudication
        and paid_cents + contractual_adjustment_cents + patient_responsibility_cents >= billed_cents)::int,
      sign * (paid_cents + pp), sign * (billed_cents - contractual_adjustment_cents),
      sign * least(pp, patient_responsibility_cents), sign * patient_responsibility_cents::bigint, 0
    from s where adjudicated_on is not null
    union all
    -- revenue lost: written off on resolved_on
    select resolved_on, provider_id, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      sign * greatest(0, billed_cents - paid_cents - contractual_adjustment_cents - pp)
    from s where status = 'Written Off' and resolved_on is not null
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
    greatest(0, billed_cents - paid_cents - contractual_adjustment_cents - pp)::bigint as outstanding
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
--> statement-breakpoint
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
--> statement-breakpoint
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
--> statement-breakpoint
-- Encounters by date (Charge Capture Accuracy): + new rows − old rows.
CREATE OR REPLACE FUNCTION analytics_encounters_delta_sql(source text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT format($tpl$
insert into analytics_encounters_daily as t (encounter_date, encounters, charges_captured)
select encounter_date, sum(sign), sum(sign * charges_captured::int)
from (%s) r
group by encounter_date
having sum(sign) <> 0 or sum(sign * charges_captured::int) <> 0
order by encounter_date
on conflict (encounter_date) do update set encounters = t.encounters + excluded.encounters,
  charges_captured = t.charges_captured + excluded.charges_captured
$tpl$, source)
$fn$;
--> statement-breakpoint
-- Authorizations per status: + new rows − old rows.
CREATE OR REPLACE FUNCTION authorizations_status_delta_sql(source text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT format($tpl$
insert into authorizations_status_rollup as t (status, authorizations)
select status, sum(sign) from (%s) r
group by status having sum(sign) <> 0
order by status
on conflict (status) do update set authorizations = t.authorizations + excluded.authorizations
$tpl$, source)
$fn$;
--> statement-breakpoint
-- The transition rows of a statement trigger as (sign, row…): + new rows, − old rows.
CREATE OR REPLACE FUNCTION rollup_transition_rows_sql(op text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT CASE op
  WHEN 'INSERT' THEN 'select 1 as sign, * from new_rows'
  WHEN 'DELETE' THEN 'select -1 as sign, * from old_rows'
  ELSE 'select 1 as sign, * from new_rows union all select -1 as sign, * from old_rows' END
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_encounters_rollup() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  EXECUTE analytics_encounters_delta_sql(rollup_transition_rows_sql(TG_OP));
  RETURN NULL;
END;
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION authorizations_status_rollup_apply() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  EXECUTE authorizations_status_delta_sql(rollup_transition_rows_sql(TG_OP));
  RETURN NULL;
END;
$fn$;
--> statement-breakpoint
-- One counter row, changed by the statement's net count (none for an update).
CREATE OR REPLACE FUNCTION patients_count_rollup_apply() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  delta bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT count(*) INTO delta FROM new_rows;
  ELSE
    SELECT -count(*) INTO delta FROM old_rows;
  END IF;
  IF delta <> 0 THEN
    INSERT INTO patients_count_rollup AS t (one, patients) VALUES (true, delta)
    ON CONFLICT (one) DO UPDATE SET patients = t.patients + excluded.patients;
  END IF;
  RETURN NULL;
END;
$fn$;
--> statement-breakpoint
-- Rebuilds of the rollups that are not claims': each from its raw table (after its TRUNCATE, and in the full rebuild).
CREATE OR REPLACE FUNCTION analytics_rebuild_encounters_rollup() RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  TRUNCATE analytics_encounters_daily;
  EXECUTE analytics_encounters_delta_sql('select 1 as sign, * from encounters');
END;
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION authorizations_rebuild_status_rollup() RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  TRUNCATE authorizations_status_rollup;
  EXECUTE authorizations_status_delta_sql('select 1 as sign, * from authorizations');
END;
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION patients_rebuild_count_rollup() RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  TRUNCATE patients_count_rollup;
  INSERT INTO patients_count_rollup (one, patients) SELECT true, count(*) FROM patients;
END;
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_rebuild_rollups() RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  TRUNCATE analytics_daily, analytics_ar_daily, analytics_ar_provider, analytics_denials_daily, claims_status_rollup,
    claims_daily_rollup, billing_payer_daily;
  EXECUTE analytics_rollup_delta_sql($src$
    select 1 as sign, c.*, coalesce(pp.cents, 0) as pp
    from claims c left join (select claim_id, sum(amount_cents)::bigint as cents from payments
      where source in ('patient', 'guest') and claim_id is not null group by claim_id) pp on pp.claim_id = c.id
  $src$);
  EXECUTE analytics_collections_delta_sql('select 1 as sign, * from payments');
  PERFORM analytics_rebuild_encounters_rollup();
  PERFORM authorizations_rebuild_status_rollup();
  PERFORM patients_rebuild_count_rollup();
END;
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION rollups_rebuild_after_truncate() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  CASE TG_TABLE_NAME
    WHEN 'encounters' THEN PERFORM analytics_rebuild_encounters_rollup();
    WHEN 'authorizations' THEN PERFORM authorizations_rebuild_status_rollup();
    WHEN 'patients' THEN PERFORM patients_rebuild_count_rollup();
  END CASE;
  RETURN NULL;
END;
$fn$;
--> statement-breakpoint
CREATE TRIGGER analytics_encounters_rollup_insert AFTER INSERT ON encounters
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_encounters_rollup();
--> statement-breakpoint
CREATE TRIGGER analytics_encounters_rollup_update AFTER UPDATE ON encounters
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_encounters_rollup();
--> statement-breakpoint
CREATE TRIGGER analytics_encounters_rollup_delete AFTER DELETE ON encounters
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_encounters_rollup();
--> statement-breakpoint
CREATE TRIGGER analytics_encounters_rollup_truncate AFTER TRUNCATE ON encounters
  FOR EACH STATEMENT EXECUTE FUNCTION rollups_rebuild_after_truncate();
--> statement-breakpoint
CREATE TRIGGER authorizations_status_rollup_insert AFTER INSERT ON authorizations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION authorizations_status_rollup_apply();
--> statement-breakpoint
CREATE TRIGGER authorizations_status_rollup_update AFTER UPDATE ON authorizations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION authorizations_status_rollup_apply();
--> statement-breakpoint
CREATE TRIGGER authorizations_status_rollup_delete AFTER DELETE ON authorizations
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION authorizations_status_rollup_apply();
--> statement-breakpoint
CREATE TRIGGER authorizations_status_rollup_truncate AFTER TRUNCATE ON authorizations
  FOR EACH STATEMENT EXECUTE FUNCTION rollups_rebuild_after_truncate();
--> statement-breakpoint
CREATE TRIGGER patients_count_rollup_insert AFTER INSERT ON patients
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION patients_count_rollup_apply();
--> statement-breakpoint
CREATE TRIGGER patients_count_rollup_delete AFTER DELETE ON patients
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION patients_count_rollup_apply();
--> statement-breakpoint
CREATE TRIGGER patients_count_rollup_truncate AFTER TRUNCATE ON patients
  FOR EACH STATEMENT EXECUTE FUNCTION rollups_rebuild_after_truncate();
--> statement-breakpoint
-- Existing databases start with exact rollups.
SELECT analytics_rebuild_rollups();
--> statement-breakpoint
-- docs/caching.md: every table notifies its committed changes (migration 0012).
DO $do$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['analytics_encounters_daily', 'billing_payer_daily', 'patients_count_rollup',
    'authorizations_status_rollup'] LOOP
    EXECUTE format(
      'CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change()',
      t || '_notify_change', t);
  END LOOP;
END
$do$;
