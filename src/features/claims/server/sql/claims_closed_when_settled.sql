-- The current definition of claims_closed_when_settled, last (re)defined by drizzle/0060_claims_closed_when_settled.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- A paid claim is Closed once nothing is left owed on it by anyone (resolved_on set: the payer's part posted and
-- the patient's share paid or never asked), and Paid again when a payer's reversal reopens its balance
-- (docs/claims.md, "The life cycle"). Kept by a row trigger on claims' updates that runs only when a row's status
-- and resolved_on disagree, so every writer (an 835 posting, a patient's or a guest's payment, an appeal won)
-- leaves the two agreeing without each one deciding it; the check claims_closed_check holds inserts to it.
CREATE OR REPLACE FUNCTION claims_closed_when_settled() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  NEW.status := CASE WHEN NEW.resolved_on IS NULL THEN 'Paid' ELSE 'Closed' END;
  RETURN NEW;
END;
$fn$;
