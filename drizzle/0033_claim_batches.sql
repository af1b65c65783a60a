CREATE TABLE "claim_acknowledgements" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claim_acknowledgements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"received_by" integer,
	"sha256" text NOT NULL,
	"sender_id" text NOT NULL,
	"interchange_control_number" text NOT NULL,
	"summary" text NOT NULL,
	"content" text NOT NULL,
	CONSTRAINT "claim_acknowledgements_sha256_unique" UNIQUE("sha256"),
	CONSTRAINT "claim_acknowledgements_kind_check" CHECK ("claim_acknowledgements"."kind" in ('999', '277CA'))
);
--> statement-breakpoint
CREATE TABLE "claim_batch_claims" (
	"batch_id" integer NOT NULL,
	"claim_id" integer NOT NULL,
	"position" integer NOT NULL,
	"set_control_number" text NOT NULL,
	"account_number" text NOT NULL,
	"billed_cents" integer NOT NULL,
	"sent" jsonb NOT NULL,
	"outcome" text,
	"answered_by" text,
	"answered_at" timestamp with time zone,
	"outcome_code" text,
	"outcome_message" text,
	"payer_claim_number" text,
	"note" text,
	CONSTRAINT "claim_batch_claims_batch_id_claim_id_pk" PRIMARY KEY("batch_id","claim_id"),
	CONSTRAINT "claim_batch_claims_outcome_check" CHECK ("claim_batch_claims"."outcome" is null or "claim_batch_claims"."outcome" in ('Accepted', 'Rejected'))
);
--> statement-breakpoint
CREATE TABLE "claim_batches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claim_batches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"payer" text NOT NULL,
	"status" text DEFAULT 'Submitted' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"created_by" integer,
	"interchange_control_number" integer NOT NULL,
	"group_control_number" integer NOT NULL,
	"first_set_control_number" integer NOT NULL,
	"set_count" integer NOT NULL,
	"claim_count" integer NOT NULL,
	"total_cents" bigint NOT NULL,
	"envelope" jsonb NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"acknowledgement_code" text,
	"acknowledgement_errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "claim_batches_interchange_control_number_unique" UNIQUE("interchange_control_number"),
	CONSTRAINT "claim_batches_group_control_number_unique" UNIQUE("group_control_number"),
	CONSTRAINT "claim_batches_status_check" CHECK ("claim_batches"."status" in ('Submitted', 'Accepted', 'Partially Accepted', 'Rejected')),
	CONSTRAINT "claim_batches_counts_check" CHECK ("claim_batches"."set_count" >= 1 and "claim_batches"."claim_count" >= 1 and "claim_batches"."total_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "x12_control_numbers" (
	"name" text PRIMARY KEY NOT NULL,
	"last_value" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "x12_control_numbers_name_check" CHECK ("x12_control_numbers"."name" in ('ISA', 'GS', 'ST')),
	CONSTRAINT "x12_control_numbers_range_check" CHECK ("x12_control_numbers"."last_value" between 0 and 999999999)
);
--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "edi_submitter_id" text;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "edi_receiver_name" text;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "edi_receiver_id" text;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "edi_usage" text DEFAULT 'T' NOT NULL;--> statement-breakpoint
ALTER TABLE "claim_acknowledgements" ADD CONSTRAINT "claim_acknowledgements_received_by_users_id_fk" FOREIGN KEY ("received_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_batch_claims" ADD CONSTRAINT "claim_batch_claims_batch_id_claim_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."claim_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_batch_claims" ADD CONSTRAINT "claim_batch_claims_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_batches" ADD CONSTRAINT "claim_batches_payer_payers_name_fk" FOREIGN KEY ("payer") REFERENCES "public"."payers"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_batches" ADD CONSTRAINT "claim_batches_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "claim_acknowledgements_interchange_uq" ON "claim_acknowledgements" USING btree ("kind","sender_id","interchange_control_number");--> statement-breakpoint
CREATE UNIQUE INDEX "claim_batch_claims_position_uq" ON "claim_batch_claims" USING btree ("batch_id","position");--> statement-breakpoint
CREATE INDEX "claim_batch_claims_claim_idx" ON "claim_batch_claims" USING btree ("claim_id","batch_id");--> statement-breakpoint
CREATE INDEX "claim_batch_claims_account_idx" ON "claim_batch_claims" USING btree ("account_number","batch_id");--> statement-breakpoint
CREATE INDEX "claim_batches_created_idx" ON "claim_batches" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "practice_settings" ADD CONSTRAINT "practice_settings_edi_usage_check" CHECK ("practice_settings"."edi_usage" in ('T', 'P'));--> statement-breakpoint
ALTER TABLE "practice_settings" ADD CONSTRAINT "practice_settings_edi_ids_check" CHECK (("practice_settings"."edi_submitter_id" is null or "practice_settings"."edi_submitter_id" ~ '^[A-Za-z0-9]{2,15}$') and ("practice_settings"."edi_receiver_id" is null or "practice_settings"."edi_receiver_id" ~ '^[A-Za-z0-9]{2,15}$'));--> statement-breakpoint
-- hand-written below
-- The control numbers of ASC X12 005010 envelopes start at 1 (the first batch takes 1); a batch takes the next
-- ones by updating these rows (claims.batches.queries.ts).
INSERT INTO x12_control_numbers (name, last_value) VALUES ('ISA', 0), ('GS', 0), ('ST', 0)
ON CONFLICT (name) DO NOTHING;--> statement-breakpoint
-- docs/caching.md: every table notifies its committed changes (migration 0012).
CREATE TRIGGER x12_control_numbers_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON x12_control_numbers
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();--> statement-breakpoint
CREATE TRIGGER claim_batches_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON claim_batches
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();--> statement-breakpoint
CREATE TRIGGER claim_batch_claims_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON claim_batch_claims
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();--> statement-breakpoint
CREATE TRIGGER claim_acknowledgements_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON claim_acknowledgements
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();
