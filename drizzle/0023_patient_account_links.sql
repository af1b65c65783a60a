ALTER TABLE "users" ADD COLUMN "deactivated_by_admin" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "patients_email_lower_idx" ON "patients" USING btree (lower("email"));--> statement-breakpoint
-- Inactive accounts an admin deactivated. A patient account without its record may have been deactivated by a
-- reset only, so it is not counted as the admin's (as before this column, the next link may make it active).
UPDATE "users" SET "deactivated_by_admin" = true WHERE NOT "active" AND ("role" <> 'patient' OR "patient_id" IS NOT NULL);
