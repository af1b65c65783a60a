CREATE TABLE "clearinghouse_mailbox" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"host" text DEFAULT '' NOT NULL,
	"port" integer DEFAULT 22 NOT NULL,
	"username" text DEFAULT '' NOT NULL,
	"auth" text DEFAULT 'password' NOT NULL,
	"secret_sealed" text,
	"host_key_sha256" text DEFAULT '' NOT NULL,
	"outbound_dir" text DEFAULT '/outbound' NOT NULL,
	"inbound_dir" text DEFAULT '/inbound' NOT NULL,
	"poll_minutes" integer DEFAULT 15 NOT NULL,
	"evening_time" text DEFAULT '19:00' NOT NULL,
	"max_failures" integer DEFAULT 5 NOT NULL,
	"send_from" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_failure_at" timestamp with time zone,
	"last_error" text,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone,
	"updated_by" integer,
	CONSTRAINT "clearinghouse_mailbox_one_row_check" CHECK ("clearinghouse_mailbox"."id" = 1),
	CONSTRAINT "clearinghouse_mailbox_auth_check" CHECK ("clearinghouse_mailbox"."auth" in ('password', 'key')),
	CONSTRAINT "clearinghouse_mailbox_port_check" CHECK ("clearinghouse_mailbox"."port" between 1 and 65535),
	CONSTRAINT "clearinghouse_mailbox_poll_check" CHECK ("clearinghouse_mailbox"."poll_minutes" between 5 and 1440),
	CONSTRAINT "clearinghouse_mailbox_evening_check" CHECK ("clearinghouse_mailbox"."evening_time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
	CONSTRAINT "clearinghouse_mailbox_failures_check" CHECK ("clearinghouse_mailbox"."max_failures" between 1 and 100 and "clearinghouse_mailbox"."consecutive_failures" >= 0)
);
--> statement-breakpoint
CREATE TABLE "mailbox_files" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mailbox_files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"direction" text NOT NULL,
	"remote_name" text NOT NULL,
	"kind" text NOT NULL,
	"bytes" integer DEFAULT 0 NOT NULL,
	"sha256" text,
	"status" text NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"source_kind" text,
	"source_id" integer,
	"attempts" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "mailbox_files_direction_check" CHECK ("mailbox_files"."direction" in ('out', 'in')),
	CONSTRAINT "mailbox_files_kind_check" CHECK ("mailbox_files"."kind" in ('837P', '270', '276', '999', '277CA', '271', '277', '835', 'unknown')),
	CONSTRAINT "mailbox_files_status_check" CHECK ("mailbox_files"."status" in ('sent', 'posted', 'refused', 'failed', 'skipped')),
	CONSTRAINT "mailbox_files_source_check" CHECK (("mailbox_files"."direction" = 'out') = ("mailbox_files"."source_kind" is not null and "mailbox_files"."source_id" is not null)),
	CONSTRAINT "mailbox_files_counts_check" CHECK ("mailbox_files"."bytes" >= 0 and "mailbox_files"."attempts" >= 1)
);
--> statement-breakpoint
ALTER TABLE "work_items" DROP CONSTRAINT "work_items_source_check";--> statement-breakpoint
ALTER TABLE "work_items" DROP CONSTRAINT "work_items_outcome_check";--> statement-breakpoint
ALTER TABLE "claim_batches" ADD COLUMN "mailed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "clearinghouse_mailbox" ADD CONSTRAINT "clearinghouse_mailbox_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mailbox_files_source_uq" ON "mailbox_files" USING btree ("source_kind","source_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mailbox_files_inbound_sha256_uq" ON "mailbox_files" USING btree ("sha256") WHERE "mailbox_files"."direction" = 'in' and "mailbox_files"."sha256" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "mailbox_files_inbound_unread_uq" ON "mailbox_files" USING btree ("remote_name") WHERE "mailbox_files"."direction" = 'in' and "mailbox_files"."sha256" is null;--> statement-breakpoint
ALTER TABLE "work_items" ADD CONSTRAINT "work_items_source_check" CHECK ("work_items"."source" in ('denial', 'balancing', 'unmatched_claim', 'unmatched_line', 'review', 'rejection', 'scrubber', 'claim_status', 'mailbox'));--> statement-breakpoint
ALTER TABLE "work_items" ADD CONSTRAINT "work_items_outcome_check" CHECK ("work_items"."outcome" is null or "work_items"."outcome" in ('appealed', 'corrected_resubmitted', 'written_off', 'patient_billed', 'fixed', 'payer_answered'));--> statement-breakpoint
-- docs/caching.md: every table notifies its committed changes (migration 0012): the mailbox settings and file log
-- (docs/clearinghouse.md), and the claim status requests, inquiries and responses of migration 0065 (docs/x12-claim-status.md).
CREATE TRIGGER clearinghouse_mailbox_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON clearinghouse_mailbox
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();--> statement-breakpoint
CREATE TRIGGER mailbox_files_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON mailbox_files
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();--> statement-breakpoint
CREATE TRIGGER claim_status_requests_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON claim_status_requests
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();--> statement-breakpoint
CREATE TRIGGER claim_status_inquiries_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON claim_status_inquiries
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();--> statement-breakpoint
CREATE TRIGGER claim_status_responses_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON claim_status_responses
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();
