-- The current definition of claims_totals_from_lines, last (re)defined by drizzle/0031_claim_model.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- A claim's billed amount is the sum of its lines' charges and its procedure code the first line's: kept by
-- the claim_lines statement triggers in the transaction that writes the lines, so every figure that reads
-- claims.billed_cents (KPIs, rollups, statements) follows the lines. A claim left without lines keeps its
-- code and bills 0.
CREATE OR REPLACE FUNCTION claims_totals_from_lines() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  touched integer[];
BEGIN
  -- The claims whose lines changed (a line moved between claims changes both).
  IF TG_OP = 'INSERT' THEN
    touched := ARRAY(SELECT DISTINCT claim_id FROM new_rows);
  ELSIF TG_OP = 'DELETE' THEN
    touched := ARRAY(SELECT DISTINCT claim_id FROM old_rows);
  ELSE
    touched := ARRAY(SELECT claim_id FROM new_rows UNION SELECT claim_id FROM old_rows);
  END IF;
  UPDATE claims c SET billed_cents = x.billed, procedure_code = coalesce(x.first_code, c.procedure_code)
  FROM (
    SELECT t.id,
      coalesce((SELECT sum(l.charge_cents) FROM claim_lines l WHERE l.claim_id = t.id), 0)::integer AS billed,
      (SELECT l.procedure_code FROM claim_lines l WHERE l.claim_id = t.id ORDER BY l.line_number LIMIT 1) AS first_code
    FROM unnest(touched) AS t(id)
  ) x
  WHERE c.id = x.id
    AND (c.billed_cents, c.procedure_code) IS DISTINCT FROM (x.billed, coalesce(x.first_code, c.procedure_code));
  RETURN NULL;
END
$fn$;
