-- docs/caching.md: every table notifies its committed changes (migration 0012). The clearinghouse mailbox's
-- settings row and its file log (docs/clearinghouse.md), created by the mailbox branch's migration.
CREATE TRIGGER clearinghouse_mailbox_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON clearinghouse_mailbox
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();--> statement-breakpoint
CREATE TRIGGER mailbox_files_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON mailbox_files
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();
