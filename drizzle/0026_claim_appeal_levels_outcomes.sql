ALTER TABLE "claim_appeals" ADD COLUMN "level" text DEFAULT 'first' NOT NULL;--> statement-breakpoint
ALTER TABLE "claim_appeals" ADD COLUMN "deadline" date;--> statement-breakpoint
ALTER TABLE "claim_appeals" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "claim_appeals" ADD COLUMN "outcome_amount_cents" integer;--> statement-breakpoint
ALTER TABLE "claim_appeals" ADD COLUMN "decided_on" date;--> statement-breakpoint
ALTER TABLE "claim_appeals" ADD COLUMN "decided_by" integer;--> statement-breakpoint
ALTER TABLE "claim_appeals" ADD CONSTRAINT "claim_appeals_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_appeals" ADD CONSTRAINT "claim_appeals_level_check" CHECK ("claim_appeals"."level" in ('first', 'second', 'external'));--> statement-breakpoint
ALTER TABLE "claim_appeals" ADD CONSTRAINT "claim_appeals_outcome_check" CHECK ("claim_appeals"."outcome" is null or "claim_appeals"."outcome" in ('won', 'partial', 'lost'));--> statement-breakpoint
ALTER TABLE "claim_appeals" ADD CONSTRAINT "claim_appeals_outcome_amount_check" CHECK (("claim_appeals"."outcome" is null) = ("claim_appeals"."outcome_amount_cents" is null) and coalesce("claim_appeals"."outcome_amount_cents", 0) >= 0);