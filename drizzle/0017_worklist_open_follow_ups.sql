CREATE TABLE "open_follow_ups" (
	"encounter_id" integer PRIMARY KEY NOT NULL,
	"patient_id" integer NOT NULL,
	"provider_id" integer NOT NULL,
	"encounter_date" date NOT NULL,
	"follow_up_due" date NOT NULL,
	"risk_class" text NOT NULL,
	"superseded_from" date,
	CONSTRAINT "open_follow_ups_risk_class_check" CHECK ("open_follow_ups"."risk_class" in ('high-risk', 'chronic', 'routine'))
);
--> statement-breakpoint
CREATE INDEX "open_follow_ups_risk_due_idx" ON "open_follow_ups" USING btree ("risk_class","follow_up_due","encounter_id");--> statement-breakpoint
CREATE INDEX "open_follow_ups_due_idx" ON "open_follow_ups" USING btree ("follow_up_due","encounter_id");--> statement-breakpoint
CREATE INDEX "open_follow_ups_provider_risk_due_idx" ON "open_follow_ups" USING btree ("provider_id","risk_class","follow_up_due","encounter_id");--> statement-breakpoint
CREATE INDEX "open_follow_ups_provider_due_idx" ON "open_follow_ups" USING btree ("provider_id","follow_up_due","encounter_id");--> statement-breakpoint
CREATE INDEX "open_follow_ups_patient_idx" ON "open_follow_ups" USING btree ("patient_id","encounter_id");--> statement-breakpoint
-- The overdue follow-ups worklist pages through index ranges of the follow-ups still OPEN
-- (docs/worklist.md "Stored open follow-ups"), kept exact IN THE SAME TRANSACTION as every write to
-- encounters and appointments by the statement triggers below. Nothing stored depends on the day.
--
-- worklist.rules.ts riskClassOf in SQL: a diagnosis's code is its first word, upper-cased; the highest class
-- among the encounter's diagnoses. The code lists are those of worklist.rules.ts (HIGH_RISK_CODES,
-- CHRONIC_CODES): worklist.open-follow-ups.test.ts fails when the two disagree.
CREATE FUNCTION worklist_risk_class(diagnosis text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE
    WHEN EXISTS (SELECT 1 FROM unnest(diagnosis) d
      WHERE upper(substring(d FROM '^\s*(\S+)')) = ANY (ARRAY['I50.9', 'N18.3', 'J44.9'])) THEN 'high-risk'
    WHEN EXISTS (SELECT 1 FROM unnest(diagnosis) d
      WHERE upper(substring(d FROM '^\s*(\S+)')) = ANY (ARRAY['E11.9', 'I10', 'E78.5', 'J45.909', 'E03.9', 'F41.1'])) THEN 'chronic'
    ELSE 'routine'
  END
$fn$;
--> statement-breakpoint
-- The definition of an open follow-up (docs/worklist.md): an encounter asking for a follow-up, on its
-- patient's most recent encounter date (any later encounter closes it), with no appointment dated after it
-- that is not Cancelled or No-Show. Which of several same-day encounters is listed depends on the day (the
-- highest id already due), so all of them are kept, each with the earliest due date of the later ones
-- (superseded_from): on a day d a row is listed when follow_up_due < d and not superseded_from < d.
CREATE VIEW open_follow_ups_definition AS
SELECT encounter_id, patient_id, provider_id, encounter_date, follow_up_due, risk_class,
  min(follow_up_due) OVER (PARTITION BY patient_id ORDER BY encounter_id DESC
    ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS superseded_from
FROM (
  SELECT e.id AS encounter_id, e.patient_id, e.provider_id, e.encounter_date, e.follow_up_due,
    worklist_risk_class(e.diagnosis) AS risk_class
  FROM encounters e
  WHERE e.follow_up_due IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM encounters l
      WHERE l.patient_id = e.patient_id AND l.encounter_date > e.encounter_date)
    AND NOT EXISTS (SELECT 1 FROM appointments a
      WHERE a.patient_id = e.patient_id AND a.date > e.encounter_date AND a.status NOT IN ('Cancelled', 'No-Show'))
) open_encounters;
--> statement-breakpoint
-- Recomputes the open follow-ups of these patients. The patients are locked first (FOR NO KEY UPDATE, in id
-- order, as patients_next_visit_refresh does), so two transactions writing one patient's encounters or
-- appointments recompute one after the other, the second seeing what the first committed (READ COMMITTED
-- takes a fresh snapshot per statement). Set-based: a bulk load is one statement, not a lookup per row.
CREATE FUNCTION open_follow_ups_refresh(ids integer[]) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  PERFORM 1 FROM patients WHERE id = ANY (ids) ORDER BY id FOR NO KEY UPDATE;
  DELETE FROM open_follow_ups WHERE patient_id = ANY (ids);
  INSERT INTO open_follow_ups (encounter_id, patient_id, provider_id, encounter_date, follow_up_due, risk_class, superseded_from)
  SELECT encounter_id, patient_id, provider_id, encounter_date, follow_up_due, risk_class, superseded_from
  FROM open_follow_ups_definition WHERE patient_id = ANY (ids);
END
$fn$;
--> statement-breakpoint
-- Recomputes the whole set (the scale seed's bulk load, a TRUNCATE of appointments, a repair). Writers to
-- encounters and appointments wait until the caller's transaction ends, so nothing is missed.
CREATE FUNCTION open_follow_ups_rebuild() RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  LOCK TABLE encounters, appointments IN SHARE MODE;
  DELETE FROM open_follow_ups;
  INSERT INTO open_follow_ups (encounter_id, patient_id, provider_id, encounter_date, follow_up_due, risk_class, superseded_from)
  SELECT encounter_id, patient_id, provider_id, encounter_date, follow_up_due, risk_class, superseded_from
  FROM open_follow_ups_definition;
END
$fn$;
--> statement-breakpoint
CREATE FUNCTION open_follow_ups_on_encounters() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM open_follow_ups;
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM open_follow_ups_refresh(ARRAY(SELECT DISTINCT patient_id FROM new_rows WHERE patient_id IS NOT NULL));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM open_follow_ups_refresh(ARRAY(SELECT DISTINCT patient_id FROM old_rows WHERE patient_id IS NOT NULL));
  ELSE
    -- Only the columns the set is made of (the chief complaint, type or charges do not matter).
    PERFORM open_follow_ups_refresh(ARRAY(
      SELECT x.patient_id FROM old_rows o JOIN new_rows n ON n.id = o.id
        CROSS JOIN LATERAL (VALUES (o.patient_id), (n.patient_id)) x(patient_id)
      WHERE (o.patient_id, o.provider_id, o.encounter_date, o.follow_up_due, o.diagnosis)
        IS DISTINCT FROM (n.patient_id, n.provider_id, n.encounter_date, n.follow_up_due, n.diagnosis)
      UNION SELECT patient_id FROM old_rows WHERE id NOT IN (SELECT id FROM new_rows)
      UNION SELECT patient_id FROM new_rows WHERE id NOT IN (SELECT id FROM old_rows)));
  END IF;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE FUNCTION open_follow_ups_on_appointments() RETURNS trigger
LANGUAGE plpgsql AS $fn$
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
    PERFORM open_follow_ups_refresh(ARRAY(
      SELECT x.patient_id FROM old_rows o JOIN new_rows n ON n.id = o.id
        CROSS JOIN LATERAL (VALUES (o.patient_id), (n.patient_id)) x(patient_id)
      WHERE (o.patient_id, o.date, o.status) IS DISTINCT FROM (n.patient_id, n.date, n.status)
      UNION SELECT patient_id FROM old_rows WHERE id NOT IN (SELECT id FROM new_rows)
      UNION SELECT patient_id FROM new_rows WHERE id NOT IN (SELECT id FROM old_rows)));
  END IF;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
-- Transition tables cannot go with a column list (UPDATE OF …), so the update triggers filter the columns
-- themselves.
CREATE TRIGGER encounters_open_follow_ups_insert AFTER INSERT ON encounters
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION open_follow_ups_on_encounters();
--> statement-breakpoint
CREATE TRIGGER encounters_open_follow_ups_update AFTER UPDATE ON encounters
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION open_follow_ups_on_encounters();
--> statement-breakpoint
CREATE TRIGGER encounters_open_follow_ups_delete AFTER DELETE ON encounters
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION open_follow_ups_on_encounters();
--> statement-breakpoint
CREATE TRIGGER encounters_open_follow_ups_truncate AFTER TRUNCATE ON encounters
  FOR EACH STATEMENT EXECUTE FUNCTION open_follow_ups_on_encounters();
--> statement-breakpoint
CREATE TRIGGER appointments_open_follow_ups_insert AFTER INSERT ON appointments
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION open_follow_ups_on_appointments();
--> statement-breakpoint
CREATE TRIGGER appointments_open_follow_ups_update AFTER UPDATE ON appointments
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION open_follow_ups_on_appointments();
--> statement-breakpoint
CREATE TRIGGER appointments_open_follow_ups_delete AFTER DELETE ON appointments
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION open_follow_ups_on_appointments();
--> statement-breakpoint
CREATE TRIGGER appointments_open_follow_ups_truncate AFTER TRUNCATE ON appointments
  FOR EACH STATEMENT EXECUTE FUNCTION open_follow_ups_on_appointments();
--> statement-breakpoint
-- docs/caching.md: every table notifies its committed changes (migration 0012).
CREATE TRIGGER open_follow_ups_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON open_follow_ups
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();
--> statement-breakpoint
-- The encounters and appointments the database already holds.
INSERT INTO open_follow_ups (encounter_id, patient_id, provider_id, encounter_date, follow_up_due, risk_class, superseded_from)
SELECT encounter_id, patient_id, provider_id, encounter_date, follow_up_due, risk_class, superseded_from
FROM open_follow_ups_definition;
