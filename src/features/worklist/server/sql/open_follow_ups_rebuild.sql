-- The current definition of open_follow_ups_rebuild, last (re)defined by drizzle/0017_worklist_open_follow_ups.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- Recomputes the whole set (the scale seed's bulk load, a TRUNCATE of appointments, a repair). Writers to
-- encounters and appointments wait until the caller's transaction ends, so nothing is missed.
CREATE OR REPLACE FUNCTION open_follow_ups_rebuild() RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  LOCK TABLE encounters, appointments IN SHARE MODE;
  DELETE FROM open_follow_ups;
  INSERT INTO open_follow_ups (encounter_id, patient_id, provider_id, encounter_date, follow_up_due, risk_class, superseded_from)
  SELECT encounter_id, patient_id, provider_id, encounter_date, follow_up_due, risk_class, superseded_from
  FROM open_follow_ups_definition;
END
$fn$;
