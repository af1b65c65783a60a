-- The current definition of patients_count_rollup_apply, last (re)defined by drizzle/0015_dashboard_payer_encounter_rollups.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
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
