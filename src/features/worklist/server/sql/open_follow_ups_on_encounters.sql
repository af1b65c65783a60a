-- The current definition of open_follow_ups_on_encounters, last (re)defined by drizzle/0048_transition_joins_planned_per_run.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
CREATE OR REPLACE FUNCTION open_follow_ups_on_encounters() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  patient_ids int[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM open_follow_ups;
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM open_follow_ups_refresh(ARRAY(SELECT DISTINCT patient_id FROM new_rows WHERE patient_id IS NOT NULL));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM open_follow_ups_refresh(ARRAY(SELECT DISTINCT patient_id FROM old_rows WHERE patient_id IS NOT NULL));
  ELSE
    -- Only the columns the set is made of (the chief complaint, type or charges do not matter).
    EXECUTE $q$
      SELECT ARRAY(
        SELECT x.patient_id FROM old_rows o JOIN new_rows n ON n.id = o.id
          CROSS JOIN LATERAL (VALUES (o.patient_id), (n.patient_id)) x(patient_id)
        WHERE (o.patient_id, o.provider_id, o.encounter_date, o.follow_up_due, o.diagnosis)
          IS DISTINCT FROM (n.patient_id, n.provider_id, n.encounter_date, n.follow_up_due, n.diagnosis)
        UNION SELECT patient_id FROM old_rows WHERE id NOT IN (SELECT id FROM new_rows)
        UNION SELECT patient_id FROM new_rows WHERE id NOT IN (SELECT id FROM old_rows))
    $q$ INTO patient_ids;
    PERFORM open_follow_ups_refresh(patient_ids);
  END IF;
  RETURN NULL;
END;
$fn$;
