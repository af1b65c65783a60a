-- Pay as Guest: failed lookups counted per account number, shared by every app server (docs/security.md).
CREATE TABLE "guest_lookup_failures" (
	"account_number" text PRIMARY KEY NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "guest_lookup_failures_window_idx" ON "guest_lookup_failures" USING btree ("window_started_at");--> statement-breakpoint
-- docs/caching.md: every table notifies its committed changes (migration 0012).
CREATE TRIGGER guest_lookup_failures_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON guest_lookup_failures
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();
