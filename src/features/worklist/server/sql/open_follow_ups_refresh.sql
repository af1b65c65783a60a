-- The current definition of open_follow_ups_refresh, last (re)defined by drizzle/0017_worklist_open_follow_ups.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- Recomputes the open follow-ups of these patients. The patients are locked first (FOR NO KEY UPDATE, in id
-- order, as patients_next_visit_refresh does), so two transactions writing one patient's encounters or
-- appointments recompute one after the other, the second seeing what the first committed (READ COMMITTED
-- takes a fresh snapshot per statement). Set-based: a bulk load is one statement, not a lookup per row.
CREATE OR REPLACE FUNCTION open_follow_ups_refresh(ids integer[]) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  PERFORM 1 FROM patients WHERE id = ANY (ids) ORDER BY id FOR NO KEY UPDATE;
  DELETE FROM open_follow_ups WHERE patient_id = ANY (ids);
  INSERT INTO open_follow_ups (encounter_id, patient_id, provider_id, encounter_date, follow_up_due, risk_class, superseded_from)
  SELECT encounter_id, patient_id, provider_id, encounter_date, follow_up_due, risk_class, superseded_from
  FROM open_follow_ups_definition WHERE patient_id = ANY (ids);
END
$fn$;
