-- The current definition of patients_next_visit_refresh, last (re)defined by drizzle/0013_patients_next_visit.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- Recomputes next_visit for these patients. The as-of row is read FOR SHARE (an advance waits for writers
-- and writers for an advance) and the patients are locked before reading their appointments, so two
-- transactions booking for one patient recompute one after the other, each statement seeing what the other
-- committed (READ COMMITTED takes a fresh snapshot per statement). FOR NO KEY UPDATE does not conflict with
-- the FOR KEY SHARE lock an appointment's foreign key takes on its patient.
CREATE OR REPLACE FUNCTION patients_next_visit_refresh(ids integer[]) RETURNS void
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
