ALTER TABLE "authorizations" ADD COLUMN "auth_number" text;--> statement-breakpoint
ALTER TABLE "authorizations" ADD COLUMN "approved_units" integer;--> statement-breakpoint
ALTER TABLE "authorizations" ADD COLUMN "valid_from" date;--> statement-breakpoint
ALTER TABLE "authorizations" ADD COLUMN "valid_to" date;--> statement-breakpoint
ALTER TABLE "authorizations" ADD COLUMN "denial_reason" text;--> statement-breakpoint
ALTER TABLE "authorizations" ADD CONSTRAINT "authorizations_valid_dates_check" CHECK ("authorizations"."valid_from" is null or "authorizations"."valid_to" is null or "authorizations"."valid_from" <= "authorizations"."valid_to");