-- App servers cache sessions and some read answers in memory (docs/caching.md). They must
-- learn of every committed change, whichever server or tool made it: every table notifies the channel
-- 'clinic_data_changes' with its name, once per statement. NOTIFY is transactional: listeners hear of a
-- change only when its transaction commits, and never of one rolled back.
CREATE OR REPLACE FUNCTION notify_data_change() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_notify('clinic_data_changes', TG_TABLE_NAME);
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
-- Every table of the schema today; a test (src/server/db/change-feed.test.ts) fails for a table added later
-- without the trigger: a later migration creating a table calls this same DO block's body for it.
DO $do$
DECLARE t record;
BEGIN
  FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' LOOP
    EXECUTE format(
      'CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change()',
      t.tablename || '_notify_change', t.tablename);
  END LOOP;
END
$do$;
