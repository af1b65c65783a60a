ALTER TABLE "users" DROP CONSTRAINT "users_patient_link_check";--> statement-breakpoint
ALTER TABLE "user_settings" ADD COLUMN "notifications" jsonb;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_patient_link_check" CHECK ("users"."role" <> 'patient' or "users"."patient_id" is not null or not "users"."active");