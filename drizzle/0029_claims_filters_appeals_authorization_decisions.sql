ALTER TABLE "authorizations" ADD COLUMN "auth_number" text;--> statement-breakpoint
ALTER TABLE "authorizations" ADD COLUMN "approved_units" integer;--> statement-breakpoint
ALTER TABLE "authorizations" ADD COLUMN "valid_from" date;--> statement-breakpoint
ALTER TABLE "authorizations" ADD COLUMN "valid_to" date;--> statement-breakpoint
ALTER TABLE "authorizations" ADD COLUMN "denial_reason" text;--> statement-breakpoint
ALTER TABLE "claim_appeals" ADD COLUMN "level" text DEFAULT 'first' NOT NULL;--> statement-breakpoint
ALTER TABLE "claim_appeals" ADD COLUMN "deadline" date;--> statement-breakpoint
ALTER TABLE "claim_appeals" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "claim_appeals" ADD COLUMN "outcome_amount_cents" integer;--> statement-breakpoint
ALTER TABLE "claim_appeals" ADD COLUMN "decided_on" date;--> statement-breakpoint
ALTER TABLE "claim_appeals" ADD COLUMN "decided_by" integer;--> statement-breakpoint
ALTER TABLE "claim_appeals" ADD CONSTRAINT "claim_appeals_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "claims_status_service_date_idx" ON "claims" USING btree ("status","service_date","id");--> statement-breakpoint
CREATE INDEX "claims_provider_service_date_idx" ON "claims" USING btree ("provider_id","service_date","id");--> statement-breakpoint
ALTER TABLE "authorizations" ADD CONSTRAINT "authorizations_valid_dates_check" CHECK ("authorizations"."valid_from" is null or "authorizations"."valid_to" is null or "authorizations"."valid_from" <= "authorizations"."valid_to");--> statement-breakpoint
ALTER TABLE "claim_appeals" ADD CONSTRAINT "claim_appeals_level_check" CHECK ("claim_appeals"."level" in ('first', 'second', 'external'));--> statement-breakpoint
ALTER TABLE "claim_appeals" ADD CONSTRAINT "claim_appeals_outcome_check" CHECK ("claim_appeals"."outcome" is null or "claim_appeals"."outcome" in ('won', 'partial', 'lost'));--> statement-breakpoint
ALTER TABLE "claim_appeals" ADD CONSTRAINT "claim_appeals_outcome_amount_check" CHECK (("claim_appeals"."outcome" is null) = ("claim_appeals"."outcome_amount_cents" is null) and coalesce("claim_appeals"."outcome_amount_cents", 0) >= 0);