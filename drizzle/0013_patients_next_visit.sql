ALTER TABLE "patients" ADD COLUMN "next_visit" date;--> statement-breakpoint
CREATE INDEX "patients_next_visit_asc_idx" ON "patients" USING btree ((coalesce("next_visit", 'infinity'::date)),"name","id");--> statement-breakpoint
CREATE INDEX "patients_next_visit_desc_idx" ON "patients" USING btree ((coalesce("next_visit", '-infinity'::date)),"name","id");--> statement-breakpoint
-- The Patients list sorts on the next visit through an index, so patients.next_visit is
-- stored and kept exact IN THE SAME TRANSACTION as every appointment write (statement triggers below).
-- 'Next visit' = the earliest appointment whose status is 'Scheduled' dated on or after the clinic's today
-- ('Rescheduled', 'Cancelled', 'No-Show' and 'Completed' bookings do not hold a visit). Today moves, so the
-- stored value is relative to one day held in patients_next_visit_as_of; the app calls
-- patients_next_visit_advance(today) before it reads next_visit (once a day per process), which
-- recomputes only the patients the change of day can affect. docs/paging.md "Next visit".
CREATE TABLE "patients_next_visit_as_of" (
  "only_row" boolean PRIMARY KEY DEFAULT true CHECK ("only_row"),
  "day" date NOT NULL
);
--> statement-breakpoint
-- -infinity: until the first advance, every scheduled appointment counts.
INSERT INTO "patients_next_visit_as_of" ("day") VALUES ('-infinity');
--> statement-breakpoint
-- Recomputes next_visit for these patients. The as-of row is read FOR SHARE (an advance waits for writers
-- and writers for an advance) and the patients are locked before reading their appointments, so two
-- transactions booking for one patient recompute one after the other, each statement seeing what the other
-- committed (READ COMMITTED takes a fresh snapshot per statement). FOR NO KEY UPDATE does not conflict with
-- the FOR KEY SHARE lock an appointment's foreign key takes on its patient.
CREATE FUNCTION patients_next_visit_refresh(ids integer[]) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  as_of date;
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  SELECT day INTO as_of FROM patients_next_visit_as_of FOR SHARE;
  PERFORM 1 FROM patients WHERE id = ANY (ids) ORDER BY id FOR NO KEY UPDATE;
  -- Set-based, so a bulk load (thousands of patients at once) is one join rather than a lookup per patient.
  WITH x AS (
    SELECT p.id, min(a.date) FILTER (WHERE a.status = 'Scheduled' AND a.date >= as_of) AS next_visit
    FROM patients p LEFT JOIN appointments a ON a.patient_id = p.id
    WHERE p.id = ANY (ids)
    GROUP BY p.id
  )
  UPDATE patients p SET next_visit = x.next_visit
  FROM x WHERE p.id = x.id AND p.next_visit IS DISTINCT FROM x.next_visit;
END
$fn$;
--> statement-breakpoint
CREATE FUNCTION patients_next_visit_on_appointments() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM patients_next_visit_refresh(ARRAY(SELECT DISTINCT patient_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM patients_next_visit_refresh(ARRAY(SELECT DISTINCT patient_id FROM old_rows));
  ELSE
    PERFORM patients_next_visit_refresh(ARRAY(
      SELECT patient_id FROM new_rows UNION SELECT patient_id FROM old_rows));
  END IF;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER appointments_next_visit_insert AFTER INSERT ON appointments
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION patients_next_visit_on_appointments();
--> statement-breakpoint
CREATE TRIGGER appointments_next_visit_update AFTER UPDATE ON appointments
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION patients_next_visit_on_appointments();
--> statement-breakpoint
CREATE TRIGGER appointments_next_visit_delete AFTER DELETE ON appointments
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION patients_next_visit_on_appointments();
--> statement-breakpoint
-- Moves the as-of day to `target` (the clinic's today). Forwards, only patients whose stored visit fell
-- before the new day change (an index range on next_visit); backwards (a clock set back), only patients
-- with a scheduled appointment between the two days (an index range on appointments' date).
CREATE FUNCTION patients_next_visit_advance(target date) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  as_of date;
BEGIN
  SELECT day INTO as_of FROM patients_next_visit_as_of FOR UPDATE;
  IF as_of = target THEN
    RETURN;
  END IF;
  UPDATE patients_next_visit_as_of SET day = target;
  IF target > as_of THEN
    PERFORM patients_next_visit_refresh(ARRAY(
      SELECT id FROM patients WHERE coalesce(next_visit, 'infinity'::date) < target));
  ELSE
    PERFORM patients_next_visit_refresh(ARRAY(
      SELECT DISTINCT patient_id FROM appointments WHERE status = 'Scheduled' AND date >= target AND date < as_of));
  END IF;
END
$fn$;
--> statement-breakpoint
-- Existing appointments (the app's first advance then moves the day to today).
UPDATE patients p SET next_visit = x.next_visit
FROM (SELECT patient_id, min(date) AS next_visit FROM appointments WHERE status = 'Scheduled' GROUP BY patient_id) x
WHERE p.id = x.patient_id;
--> statement-breakpoint
-- docs/caching.md: every table notifies its committed changes (migration 0012).
CREATE TRIGGER patients_next_visit_as_of_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON patients_next_visit_as_of
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();
