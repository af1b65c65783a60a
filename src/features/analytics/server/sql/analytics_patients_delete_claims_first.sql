-- The current definition of analytics_patients_delete_claims_first, last (re)defined by drizzle/0010_analytics_rollup_triggers.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- Deleting a patient cascades to their claims and their payments in one statement, and the after-triggers
-- of cascaded deletes run only at the end of it, in no set order. Deleting the patient's claims first, in
-- a statement of their own, lets each claim leave the rollups while its payments are still there.
CREATE OR REPLACE FUNCTION analytics_patients_delete_claims_first() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM claims WHERE patient_id = OLD.id;
  RETURN OLD;
END;
$fn$;
