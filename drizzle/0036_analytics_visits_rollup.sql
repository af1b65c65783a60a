CREATE TABLE "analytics_visits_daily" (
	"day" date PRIMARY KEY NOT NULL,
	"completed" bigint DEFAULT 0 NOT NULL,
	"captured" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Charge Capture Accuracy from a rollup kept exact in the same transaction as every write (docs/kpis.md
-- "Rollups"): completed visits and those billed, per day. Not by increments like the other rollups: whether a
-- visit is billed depends on the other rows of its patient and day, so each statement recomputes the days it
-- touched from the raw tables (statement-level triggers over the transition tables, as 0010 and 0015 do).
--
-- Charge Capture Accuracy's counts per day, as SQL: completed visits (appointments with status Completed) and,
-- of them, those billed by a claim of the same patient whose service date is the visit's day. That is the
-- raw rule (visitBilledSql, analytics.queries.ts) word for word: any claim counts, whatever its status, a
-- voided one too. With `only_days` the days are those of the date[] bound as $1; without, every day. The
-- billed visits are a semi-join of their own, so the planner probes claims_patient_idx per visit for a few
-- days and joins the tables whole for a rebuild.
CREATE OR REPLACE FUNCTION analytics_visits_daily_sql(only_days boolean) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT format($tpl$
select day, sum(completed)::bigint as completed, sum(captured)::bigint as captured from (
  select a.date as day, count(*) as completed, 0 as captured
  from appointments a where a.status = 'Completed' %1$s
  group by a.date
  union all
  select a.date, 0, count(*)
  from appointments a where a.status = 'Completed' %1$s
    and exists (select 1 from claims c where c.patient_id = a.patient_id and c.service_date = a.date)
  group by a.date
) visits
group by day
$tpl$, CASE WHEN only_days THEN 'and a.date = any ($1)' ELSE '' END)
$fn$;
--> statement-breakpoint
-- Recomputes the days `days` from the raw tables. Whether a visit is billed depends on rows other writers may
-- be changing (a claim and an appointment of the same day, written at once), so each day's row is locked first,
-- in day order (two statements locking the same days cannot deadlock on them), and only then counted, in a
-- statement of its own: under READ COMMITTED that statement sees everything committed by the writers it
-- waited for, and the last writer of a day always counts last. Each locked day is written even when its counts
-- stay the same: a writer at REPEATABLE READ, whose snapshot cannot see the writer it waited for, then fails
-- with a serialization error instead of storing counts from before that write. A day left without completed
-- visits keeps its row at zero (deleting it would let a waiting writer find no row to lock).
CREATE OR REPLACE FUNCTION analytics_visits_daily_refresh(days date[]) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  days := ARRAY(SELECT DISTINCT d FROM unnest(days) d WHERE d IS NOT NULL ORDER BY d);
  IF cardinality(days) = 0 THEN
    RETURN;
  END IF;
  INSERT INTO analytics_visits_daily (day) SELECT unnest(days) ON CONFLICT (day) DO NOTHING;
  PERFORM 1 FROM analytics_visits_daily WHERE day = ANY (days) ORDER BY day FOR NO KEY UPDATE;
  EXECUTE format($sql$
    update analytics_visits_daily t
    set completed = coalesce(v.completed, 0), captured = coalesce(v.captured, 0)
    from unnest($1) d(day) left join (%s) v on v.day = d.day
    where t.day = d.day
  $sql$, analytics_visits_daily_sql(true)) USING days;
END;
$fn$;
--> statement-breakpoint
-- The visits rollup from the raw tables, every day in one grouped statement (the full rebuild, a TRUNCATE of
-- appointments, and this migration for existing databases).
CREATE OR REPLACE FUNCTION analytics_rebuild_visits_rollup() RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  TRUNCATE analytics_visits_daily;
  EXECUTE format('insert into analytics_visits_daily (day, completed, captured) select * from (%s) v order by day',
    analytics_visits_daily_sql(false));
END;
$fn$;
--> statement-breakpoint
-- Appointments written: the days of completed visits that came, left or changed patient. An update that leaves
-- a row's status, day and patient as they were (a new reason, another time) recomputes nothing.
CREATE OR REPLACE FUNCTION analytics_visits_on_appointments() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM analytics_visits_daily_refresh(ARRAY(SELECT date FROM new_rows WHERE status = 'Completed'));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM analytics_visits_daily_refresh(ARRAY(SELECT date FROM old_rows WHERE status = 'Completed'));
  ELSE
    PERFORM analytics_visits_daily_refresh(ARRAY(
      SELECT n.date FROM new_rows n WHERE n.status = 'Completed' AND NOT EXISTS (SELECT 1 FROM old_rows o
        WHERE o.id = n.id AND o.status = n.status AND o.date = n.date AND o.patient_id = n.patient_id)
      UNION ALL
      SELECT o.date FROM old_rows o WHERE o.status = 'Completed' AND NOT EXISTS (SELECT 1 FROM new_rows n
        WHERE n.id = o.id AND n.status = o.status AND n.date = o.date AND n.patient_id = o.patient_id)));
  END IF;
  RETURN NULL;
END;
$fn$;
--> statement-breakpoint
-- Claims written: the service dates of claims that came, left or changed patient or day (all the billed
-- rule reads). An update of anything else (status, money, a void) recomputes nothing.
CREATE OR REPLACE FUNCTION analytics_visits_on_claims() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM analytics_visits_daily_refresh(ARRAY(SELECT service_date FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM analytics_visits_daily_refresh(ARRAY(SELECT service_date FROM old_rows));
  ELSE
    PERFORM analytics_visits_daily_refresh(ARRAY(
      SELECT n.service_date FROM new_rows n WHERE NOT EXISTS (SELECT 1 FROM old_rows o
        WHERE o.id = n.id AND o.patient_id = n.patient_id AND o.service_date = n.service_date)
      UNION ALL
      SELECT o.service_date FROM old_rows o WHERE NOT EXISTS (SELECT 1 FROM new_rows n
        WHERE n.id = o.id AND n.patient_id = o.patient_id AND n.service_date = o.service_date)));
  END IF;
  RETURN NULL;
END;
$fn$;
--> statement-breakpoint
-- The full rebuild (a TRUNCATE of claims or payments, rebuildRollups, the scale seed) rebuilds the visits too.
CREATE OR REPLACE FUNCTION analytics_rebuild_rollups() RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  TRUNCATE analytics_daily, analytics_ar_daily, analytics_ar_provider, analytics_denials_daily, claims_status_rollup,
    claims_daily_rollup, billing_payer_daily;
  EXECUTE analytics_rollup_delta_sql($src$
    select 1 as sign, c.service_date, c.submitted_on, c.adjudicated_on, c.resolved_on, c.provider_id, c.payer,
      c.status, c.reason_code, c.denial_description, c.billed_cents, c.paid_cents, c.contractual_adjustment_cents,
      c.patient_responsibility_cents, c.clean_submission, c.denied_on_first_adjudication, c.voided_at,
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
-- A TRUNCATE of appointments (a reset, TRUNCATE patients CASCADE) rebuilds the visits rollup.
CREATE OR REPLACE FUNCTION rollups_rebuild_after_truncate() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  CASE TG_TABLE_NAME
    WHEN 'encounters' THEN PERFORM analytics_rebuild_encounters_rollup();
    WHEN 'authorizations' THEN PERFORM authorizations_rebuild_status_rollup();
    WHEN 'patients' THEN PERFORM patients_rebuild_count_rollup();
    WHEN 'appointments' THEN PERFORM analytics_rebuild_visits_rollup();
  END CASE;
  RETURN NULL;
END;
$fn$;
--> statement-breakpoint
CREATE TRIGGER analytics_visits_appointments_insert AFTER INSERT ON appointments
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_visits_on_appointments();
--> statement-breakpoint
CREATE TRIGGER analytics_visits_appointments_update AFTER UPDATE ON appointments
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_visits_on_appointments();
--> statement-breakpoint
CREATE TRIGGER analytics_visits_appointments_delete AFTER DELETE ON appointments
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_visits_on_appointments();
--> statement-breakpoint
CREATE TRIGGER analytics_visits_appointments_truncate AFTER TRUNCATE ON appointments
  FOR EACH STATEMENT EXECUTE FUNCTION rollups_rebuild_after_truncate();
--> statement-breakpoint
CREATE TRIGGER analytics_visits_claims_insert AFTER INSERT ON claims
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_visits_on_claims();
--> statement-breakpoint
CREATE TRIGGER analytics_visits_claims_update AFTER UPDATE ON claims
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_visits_on_claims();
--> statement-breakpoint
-- After the statement, unlike the claims rollup's row trigger before it: a day is recomputed from what is left.
-- A patient's delete removes their claims first (analytics_patients_delete_claims_first), then its cascade their
-- appointments; each statement recomputes the days it touched, so the order does not matter.
CREATE TRIGGER analytics_visits_claims_delete AFTER DELETE ON claims
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_visits_on_claims();
--> statement-breakpoint
-- A TRUNCATE of claims already rebuilds every rollup (analytics_claims_rollup_truncate, analytics_rebuild_rollups).
-- Existing databases start with an exact rollup.
SELECT analytics_rebuild_visits_rollup();
--> statement-breakpoint
-- docs/caching.md: every table notifies its committed changes (migration 0012).
CREATE TRIGGER analytics_visits_daily_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON analytics_visits_daily
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();
