-- The current definition of patients_next_visit_advance, last (re)defined by drizzle/0013_patients_next_visit.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- Moves the as-of day to `target` (the clinic's today). Forwards, only patients whose stored visit fell
-- before the new day change (an index range on next_visit); backwards (a clock set back), only patients
-- with a scheduled appointment between the two days (an index range on appointments' date).
CREATE OR REPLACE FUNCTION patients_next_visit_advance(target date) RETURNS void
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
