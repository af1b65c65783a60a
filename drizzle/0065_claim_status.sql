CREATE TABLE "claim_status_inquiries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claim_status_inquiries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"claim_id" integer NOT NULL,
	"request_id" integer NOT NULL,
	"trace_number" text NOT NULL,
	"asked_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"response_id" integer,
	"category_code" text,
	"status_code" text,
	"entity_code" text,
	"effective_on" date,
	"payer_claim_number" text,
	"charge_cents" integer,
	"paid_cents" integer,
	"message" text,
	"needs_action" boolean,
	CONSTRAINT "claim_status_inquiries_trace_number_unique" UNIQUE("trace_number"),
	CONSTRAINT "claim_status_inquiries_answer_check" CHECK (("claim_status_inquiries"."answered_at" is null) = ("claim_status_inquiries"."response_id" is null))
);
--> statement-breakpoint
CREATE TABLE "claim_status_requests" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claim_status_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"payer" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"created_by" integer,
	"interchange_control_number" integer NOT NULL,
	"group_control_number" integer NOT NULL,
	"claim_count" integer NOT NULL,
	"content" text NOT NULL,
	"mailed_at" timestamp with time zone,
	CONSTRAINT "claim_status_requests_interchange_control_number_unique" UNIQUE("interchange_control_number"),
	CONSTRAINT "claim_status_requests_group_control_number_unique" UNIQUE("group_control_number"),
	CONSTRAINT "claim_status_requests_count_check" CHECK ("claim_status_requests"."claim_count" >= 1)
);
--> statement-breakpoint
CREATE TABLE "claim_status_responses" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claim_status_responses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"sha256" text NOT NULL,
	"file_name" text NOT NULL,
	"content" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"received_by" integer,
	"sender_id" text NOT NULL,
	"interchange_control_number" text NOT NULL,
	"summary" text NOT NULL,
	CONSTRAINT "claim_status_responses_sha256_unique" UNIQUE("sha256")
);
--> statement-breakpoint
ALTER TABLE "work_items" DROP CONSTRAINT "work_items_source_check";--> statement-breakpoint
ALTER TABLE "work_items" DROP CONSTRAINT "work_items_outcome_check";--> statement-breakpoint
DROP INDEX "audit_log_claim_changes_idx";--> statement-breakpoint
ALTER TABLE "payers" ADD COLUMN "claim_status_after_days" integer DEFAULT 30;--> statement-breakpoint
ALTER TABLE "claim_status_inquiries" ADD CONSTRAINT "claim_status_inquiries_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_status_inquiries" ADD CONSTRAINT "claim_status_inquiries_request_id_claim_status_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."claim_status_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_status_inquiries" ADD CONSTRAINT "claim_status_inquiries_response_id_claim_status_responses_id_fk" FOREIGN KEY ("response_id") REFERENCES "public"."claim_status_responses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_status_requests" ADD CONSTRAINT "claim_status_requests_payer_payers_name_fk" FOREIGN KEY ("payer") REFERENCES "public"."payers"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_status_requests" ADD CONSTRAINT "claim_status_requests_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_status_responses" ADD CONSTRAINT "claim_status_responses_received_by_users_id_fk" FOREIGN KEY ("received_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "claim_status_inquiries_claim_idx" ON "claim_status_inquiries" USING btree ("claim_id","asked_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "claim_status_inquiries_request_idx" ON "claim_status_inquiries" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "claim_status_requests_created_idx" ON "claim_status_requests" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "claim_status_requests_unmailed_idx" ON "claim_status_requests" USING btree ("created_at","id") WHERE "claim_status_requests"."mailed_at" is null;--> statement-breakpoint
CREATE INDEX "audit_log_claim_changes_idx" ON "audit_log" USING btree ("resource","id") WHERE action in ('claim.void', 'claim.update', 'claim.create', 'claim.appeal.outcome', 'claim.write_off', 'claim.correct', 'claim.void_at_payer', 'claim.remittance.post', 'claim.next_policy.follow', 'claim.status.request', 'claim.status.answer');--> statement-breakpoint
ALTER TABLE "payers" ADD CONSTRAINT "payers_claim_status_after_days_check" CHECK ("payers"."claim_status_after_days" is null or "payers"."claim_status_after_days" between 1 and 365);--> statement-breakpoint
ALTER TABLE "work_items" ADD CONSTRAINT "work_items_source_check" CHECK ("work_items"."source" in ('denial', 'balancing', 'unmatched_claim', 'unmatched_line', 'review', 'rejection', 'scrubber', 'claim_status'));--> statement-breakpoint
ALTER TABLE "work_items" ADD CONSTRAINT "work_items_outcome_check" CHECK ("work_items"."outcome" is null or "work_items"."outcome" in ('appealed', 'corrected_resubmitted', 'written_off', 'patient_billed', 'payer_answered'));