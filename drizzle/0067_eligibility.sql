CREATE SEQUENCE "public"."eligibility_control_number_seq" INCREMENT BY 1 MINVALUE 500000001 MAXVALUE 999999999 START WITH 500000001 CACHE 1;--> statement-breakpoint
CREATE TABLE "eligibility_checks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "eligibility_checks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"coverage_id" integer NOT NULL,
	"inquiry_id" integer NOT NULL,
	"service_date" date NOT NULL,
	"trace_number" text NOT NULL,
	"member_id" text NOT NULL,
	"status" text DEFAULT 'Awaiting' NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"summary" jsonb,
	"response_id" integer,
	CONSTRAINT "eligibility_checks_status_check" CHECK ("eligibility_checks"."status" in ('Awaiting', 'Active', 'Inactive', 'Rejected')),
	CONSTRAINT "eligibility_checks_answer_check" CHECK (("eligibility_checks"."status" = 'Awaiting') = ("eligibility_checks"."answered_at" is null) and ("eligibility_checks"."status" = 'Awaiting') = ("eligibility_checks"."response_id" is null))
);
--> statement-breakpoint
CREATE TABLE "eligibility_inquiries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "eligibility_inquiries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone NOT NULL,
	"created_by" integer,
	"reason" text NOT NULL,
	"text" text NOT NULL,
	"interchange_control_number" integer NOT NULL,
	"group_control_number" integer NOT NULL,
	"service_date" date NOT NULL,
	"check_count" integer NOT NULL,
	"mailed_at" timestamp with time zone,
	CONSTRAINT "eligibility_inquiries_interchange_control_number_unique" UNIQUE("interchange_control_number"),
	CONSTRAINT "eligibility_inquiries_group_control_number_unique" UNIQUE("group_control_number"),
	CONSTRAINT "eligibility_inquiries_reason_check" CHECK ("eligibility_inquiries"."reason" in ('manual', 'evening')),
	CONSTRAINT "eligibility_inquiries_control_check" CHECK ("eligibility_inquiries"."interchange_control_number" between 1 and 999999999)
);
--> statement-breakpoint
CREATE TABLE "eligibility_responses" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "eligibility_responses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"received_at" timestamp with time zone NOT NULL,
	"received_by" integer,
	"sha256" text NOT NULL,
	"file_name" text NOT NULL,
	"text" text NOT NULL,
	"answered_count" integer NOT NULL,
	"active_count" integer NOT NULL,
	"inactive_count" integer NOT NULL,
	"rejected_count" integer NOT NULL,
	CONSTRAINT "eligibility_responses_sha256_unique" UNIQUE("sha256"),
	CONSTRAINT "eligibility_responses_sha256_check" CHECK ("eligibility_responses"."sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "eligibility_checks" ADD CONSTRAINT "eligibility_checks_coverage_id_coverages_id_fk" FOREIGN KEY ("coverage_id") REFERENCES "public"."coverages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eligibility_checks" ADD CONSTRAINT "eligibility_checks_inquiry_id_eligibility_inquiries_id_fk" FOREIGN KEY ("inquiry_id") REFERENCES "public"."eligibility_inquiries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eligibility_checks" ADD CONSTRAINT "eligibility_checks_response_id_eligibility_responses_id_fk" FOREIGN KEY ("response_id") REFERENCES "public"."eligibility_responses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "eligibility_checks_trace_uq" ON "eligibility_checks" USING btree ("trace_number");--> statement-breakpoint
CREATE INDEX "eligibility_checks_coverage_idx" ON "eligibility_checks" USING btree ("coverage_id","requested_at","id");--> statement-breakpoint
CREATE INDEX "eligibility_checks_coverage_day_idx" ON "eligibility_checks" USING btree ("coverage_id","service_date","id");--> statement-breakpoint
CREATE INDEX "eligibility_checks_service_date_idx" ON "eligibility_checks" USING btree ("service_date","coverage_id");--> statement-breakpoint
CREATE INDEX "eligibility_checks_inquiry_idx" ON "eligibility_checks" USING btree ("inquiry_id");--> statement-breakpoint
CREATE INDEX "eligibility_inquiries_unmailed_idx" ON "eligibility_inquiries" USING btree ("created_at","id") WHERE "eligibility_inquiries"."mailed_at" is null;--> statement-breakpoint
-- docs/caching.md: every table notifies its committed changes (migration 0012), so the answer cache of the day's
-- schedule (which shows each visit's eligibility) and of other reads drops what an eligibility write makes stale.
CREATE TRIGGER eligibility_inquiries_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON eligibility_inquiries
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();--> statement-breakpoint
CREATE TRIGGER eligibility_responses_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON eligibility_responses
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();--> statement-breakpoint
CREATE TRIGGER eligibility_checks_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON eligibility_checks
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();
