-- The current definition of analytics_visits_on_claims, last (re)defined by drizzle/0048_transition_joins_planned_per_run.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- Claims written: the service dates of claims that came, left or changed patient or day (all the billed
-- rule reads). An update of anything else (status, money, a void) recomputes nothing.
CREATE OR REPLACE FUNCTION analytics_visits_on_claims() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  days date[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM analytics_visits_daily_refresh(ARRAY(SELECT service_date FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM analytics_visits_daily_refresh(ARRAY(SELECT service_date FROM old_rows));
  ELSE
    EXECUTE $q$
      SELECT ARRAY(
        SELECT n.service_date FROM new_rows n WHERE NOT EXISTS (SELECT 1 FROM old_rows o
          WHERE o.id = n.id AND o.patient_id = n.patient_id AND o.service_date = n.service_date)
        UNION ALL
        SELECT o.service_date FROM old_rows o WHERE NOT EXISTS (SELECT 1 FROM new_rows n
          WHERE n.id = o.id AND n.patient_id = o.patient_id AND n.service_date = o.service_date))
    $q$ INTO days;
    PERFORM analytics_visits_daily_refresh(days);
  END IF;
  RETURN NULL;
END;
$fn$;
