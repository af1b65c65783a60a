-- docs/caching.md: every table notifies its committed changes (migration 0012), so the answer cache of the day's
-- schedule (which shows each visit's eligibility) and of other reads drops what an eligibility write makes stale.
CREATE TRIGGER eligibility_inquiries_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON eligibility_inquiries
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();--> statement-breakpoint
CREATE TRIGGER eligibility_responses_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON eligibility_responses
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();--> statement-breakpoint
CREATE TRIGGER eligibility_checks_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON eligibility_checks
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();
