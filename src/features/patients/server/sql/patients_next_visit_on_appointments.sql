-- The current definition of patients_next_visit_on_appointments, last (re)defined by drizzle/0013_patients_next_visit.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
CREATE OR REPLACE FUNCTION patients_next_visit_on_appointments() RETURNS trigger
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
