-- The current definition of notify_data_change, last (re)defined by drizzle/0012_data_change_notifications.sql.
-- A migration that changes it copies this statement, and this file changes with it (docs/database-functions.md).
--
-- App servers cache sessions and some read answers in memory (docs/caching.md). They must learn of every
-- committed change, whichever server or tool made it: every table notifies the channel
-- 'clinic_data_changes' with its name, once per statement. NOTIFY is transactional: listeners hear of a
-- change only when its transaction commits, and never of one rolled back.
CREATE OR REPLACE FUNCTION notify_data_change() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_notify('clinic_data_changes', TG_TABLE_NAME);
  RETURN NULL;
END
$fn$;
