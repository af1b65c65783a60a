-- The current definition of rollup_transition_rows_sql, last (re)defined by drizzle/0015_dashboard_payer_encounter_rollups.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- The transition rows of a statement trigger as (sign, row…): + new rows, − old rows.
CREATE OR REPLACE FUNCTION rollup_transition_rows_sql(op text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT CASE op
  WHEN 'INSERT' THEN 'select 1 as sign, * from new_rows'
  WHEN 'DELETE' THEN 'select -1 as sign, * from old_rows'
  ELSE 'select 1 as sign, * from new_rows union all select -1 as sign, * from old_rows' END
$fn$;
