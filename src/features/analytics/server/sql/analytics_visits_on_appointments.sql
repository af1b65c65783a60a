-- The current definition of analytics_visits_on_appointments, last (re)defined by drizzle/0048_transition_joins_planned_per_run.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- Appointments written: the days of completed visits that came, left or changed patient. An update that leaves
-- a row's status, day and patient as they were (a new reason, another time) recomputes nothing.
CREATE OR REPLACE FUNCTION analytics_visits_on_appointments() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  days date[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM analytics_visits_daily_refresh(ARRAY(SELECT date FROM new_rows WHERE status = 'Completed'));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM analytics_visits_daily_refresh(ARRAY(SELECT date FROM old_rows WHERE status = 'Completed'));
  ELSE
    EXECUTE $q$
      SELECT ARRAY(
        SELECT n.date FROM new_rows n WHERE n.status = 'Completed' AND NOT EXISTS (SELECT 1 FROM old_rows o
          WHERE o.id = n.id AND o.status = n.status AND o.date = n.date AND o.patient_id = n.patient_id)
        UNION ALL
        SELECT o.date FROM old_rows o WHERE o.status = 'Completed' AND NOT EXISTS (SELECT 1 FROM new_rows n
          WHERE n.id = o.id AND n.status = o.status AND n.date = o.date AND n.patient_id = o.patient_id))
    $q$ INTO days;
    PERFORM analytics_visits_daily_refresh(days);
  END IF;
  RETURN NULL;
END;
$fn$;
