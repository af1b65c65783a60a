-- The current definition of open_follow_ups_on_appointments, last (re)defined by drizzle/0048_transition_joins_planned_per_run.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
CREATE OR REPLACE FUNCTION open_follow_ups_on_appointments() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  patient_ids int[];
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
    EXECUTE $q$
      SELECT ARRAY(
        SELECT x.patient_id FROM old_rows o JOIN new_rows n ON n.id = o.id
          CROSS JOIN LATERAL (VALUES (o.patient_id), (n.patient_id)) x(patient_id)
        WHERE (o.patient_id, o.date, o.status) IS DISTINCT FROM (n.patient_id, n.date, n.status)
        UNION SELECT patient_id FROM old_rows WHERE id NOT IN (SELECT id FROM new_rows)
        UNION SELECT patient_id FROM new_rows WHERE id NOT IN (SELECT id FROM old_rows))
    $q$ INTO patient_ids;
    PERFORM open_follow_ups_refresh(patient_ids);
  END IF;
  RETURN NULL;
END;
$fn$;
