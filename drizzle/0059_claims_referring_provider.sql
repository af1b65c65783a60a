ALTER TABLE "claims" ADD COLUMN "referring_provider_name" text;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "referring_provider_npi" text;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_referring_provider_check" CHECK (("claims"."referring_provider_name" is null) = ("claims"."referring_provider_npi" is null));