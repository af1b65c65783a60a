-- ICD-10-CM split N18.3 (chronic kidney disease, stage 3) into N18.30, N18.31 and N18.32 on 2020-10-01:
-- the new codes are high-risk as N18.3 was, which stays for records coded before the split. The code
-- lists are those of worklist.rules.ts (HIGH_RISK_CODES, CHRONIC_CODES): worklist.open-follow-ups.test.ts
-- fails when the two disagree. The stored open follow-ups are rebuilt with the new classes.
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
--> statement-breakpoint
SELECT open_follow_ups_rebuild();
