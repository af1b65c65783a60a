-- TOTP enrolment: recovery codes (hashed, single use), the secret pending confirmation on the sign-in attempt,
-- the last accepted time step (no code reused), and the expiry of an admin-created temporary password.
-- mfa_secret now holds AES-256-GCM ciphertext; no path wrote a plain secret before, any there is cleared
-- so that its user enrols again.
CREATE TABLE "mfa_recovery_codes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mfa_recovery_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "sign_in_challenges" ADD COLUMN "pending_mfa_secret" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mfa_last_step" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "temporary_password_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mfa_recovery_codes" ADD CONSTRAINT "mfa_recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mfa_recovery_codes_user_idx" ON "mfa_recovery_codes" USING btree ("user_id");--> statement-breakpoint
UPDATE "users" SET "mfa_secret" = NULL WHERE "mfa_secret" IS NOT NULL AND "mfa_secret" NOT LIKE 'v1.%';--> statement-breakpoint
-- docs/caching.md: every table notifies its committed changes (migration 0012).
CREATE TRIGGER mfa_recovery_codes_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON mfa_recovery_codes
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();
