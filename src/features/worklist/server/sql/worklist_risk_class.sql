-- The current definition of worklist_risk_class, last (re)defined by drizzle/0030_worklist_ckd_stage3_codes.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- worklist.rules.ts riskClassOf in SQL: a diagnosis's code is its first word, upper-cased; the highest class
-- among the encounter's diagnoses. The code lists are those of worklist.rules.ts (HIGH_RISK_CODES,
-- CHRONIC_CODES): worklist.open-follow-ups.test.ts fails when the two disagree.
CREATE OR REPLACE FUNCTION worklist_risk_class(diagnosis text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE
    WHEN EXISTS (SELECT 1 FROM unnest(diagnosis) d
      WHERE upper(substring(d FROM '^\s*(\S+)')) = ANY (ARRAY['I50.9', 'N18.30', 'N18.31', 'N18.32', 'N18.3', 'J44.9'])) THEN 'high-risk'
    WHEN EXISTS (SELECT 1 FROM unnest(diagnosis) d
      WHERE upper(substring(d FROM '^\s*(\S+)')) = ANY (ARRAY['E11.9', 'I10', 'E78.5', 'J45.909', 'E03.9', 'F41.1'])) THEN 'chronic'
    ELSE 'routine'
  END
$fn$;
