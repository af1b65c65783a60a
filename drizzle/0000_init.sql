CREATE TABLE "appointments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "appointments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"patient_id" integer NOT NULL,
	"provider_id" integer NOT NULL,
	"reason" text NOT NULL,
	"date" date NOT NULL,
	"time" text NOT NULL,
	"status" text DEFAULT 'Scheduled' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appointments_status_check" CHECK ("appointments"."status" in ('Scheduled', 'Completed', 'Cancelled', 'No-Show', 'Rescheduled')),
	CONSTRAINT "appointments_time_check" CHECK ("appointments"."time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$')
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"occurred_at" timestamp with time zone NOT NULL,
	"actor" text NOT NULL,
	"actor_user_id" integer,
	"actor_role" text,
	"action" text NOT NULL,
	"resource" text NOT NULL,
	"detail" text,
	"patient_id" integer,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"csrf_token" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sign_in_challenges" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sign_in_lockouts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"email" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" text NOT NULL,
	"patient_id" integer,
	"active" boolean DEFAULT true NOT NULL,
	"mfa_secret" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email"),
	CONSTRAINT "users_role_check" CHECK ("users"."role" in ('guest', 'nurse_manager', 'doctor', 'billing_admin', 'patient', 'admin')),
	CONSTRAINT "users_email_lower_check" CHECK ("users"."email" = lower("users"."email")),
	CONSTRAINT "users_patient_link_check" CHECK ("users"."role" <> 'patient' or "users"."patient_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "authorizations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "authorizations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"patient_id" integer NOT NULL,
	"service" text NOT NULL,
	"procedure_code" text NOT NULL,
	"payer" text NOT NULL,
	"status" text DEFAULT 'Pending' NOT NULL,
	"requested_on" date NOT NULL,
	"decided_on" date,
	"decided_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "authorizations_status_check" CHECK ("authorizations"."status" in ('Pending', 'Approved', 'Denied')),
	CONSTRAINT "authorizations_payer_check" CHECK ("authorizations"."payer" in ('Medicare', 'Medicaid', 'Aetna', 'Blue Cross Blue Shield', 'UnitedHealthcare', 'Cigna', 'Humana', 'Kaiser Permanente', 'Tricare', 'Self-Pay'))
);
--> statement-breakpoint
CREATE TABLE "billing_staff_hours" (
	"day" date PRIMARY KEY NOT NULL,
	"hours" numeric(6, 2) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operating_expenses" (
	"month" date PRIMARY KEY NOT NULL,
	"amount_cents" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"patient_id" integer NOT NULL,
	"claim_id" integer,
	"amount_cents" integer NOT NULL,
	"source" text NOT NULL,
	"received_on" date NOT NULL,
	"reference" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_amount_check" CHECK ("payments"."amount_cents" > 0),
	CONSTRAINT "payments_source_check" CHECK ("payments"."source" in ('payer', 'patient', 'guest'))
);
--> statement-breakpoint
CREATE TABLE "claim_appeals" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claim_appeals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"claim_id" integer NOT NULL,
	"reason" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"patient_id" integer NOT NULL,
	"provider_id" integer NOT NULL,
	"account_number" text NOT NULL,
	"procedure_code" text NOT NULL,
	"payer" text NOT NULL,
	"service_date" date NOT NULL,
	"submitted_on" date,
	"adjudicated_on" date,
	"resolved_on" date,
	"billed_cents" integer NOT NULL,
	"paid_cents" integer DEFAULT 0 NOT NULL,
	"contractual_adjustment_cents" integer DEFAULT 0 NOT NULL,
	"patient_responsibility_cents" integer DEFAULT 0 NOT NULL,
	"status" text NOT NULL,
	"reason_code" text,
	"remark_code" text,
	"denial_description" text,
	"clean_submission" boolean DEFAULT true NOT NULL,
	"denied_on_first_adjudication" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "claims_account_number_unique" UNIQUE("account_number"),
	CONSTRAINT "claims_status_check" CHECK ("claims"."status" in ('Draft', 'Submitted', 'Pending', 'Paid', 'Partially Paid', 'Denied', 'Appealed', 'Written Off')),
	CONSTRAINT "claims_payer_check" CHECK ("claims"."payer" in ('Medicare', 'Medicaid', 'Aetna', 'Blue Cross Blue Shield', 'UnitedHealthcare', 'Cigna', 'Humana', 'Kaiser Permanente', 'Tricare', 'Self-Pay')),
	CONSTRAINT "claims_money_check" CHECK ("claims"."billed_cents" >= 0 and "claims"."paid_cents" >= 0 and "claims"."contractual_adjustment_cents" >= 0 and "claims"."patient_responsibility_cents" >= 0),
	CONSTRAINT "claims_reason_check" CHECK ("claims"."reason_code" is null or "claims"."reason_code" ~ '^(CO|PR|OA|PI|CR)-[A-Z0-9]{1,4}$')
);
--> statement-breakpoint
CREATE TABLE "compliance_gaps" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "compliance_gaps_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"title" text NOT NULL,
	"safeguard" text NOT NULL,
	"severity" text NOT NULL,
	"status" text DEFAULT 'Open' NOT NULL,
	"due_date" date NOT NULL,
	"owner" text NOT NULL,
	CONSTRAINT "compliance_gaps_safeguard_check" CHECK ("compliance_gaps"."safeguard" in ('Administrative', 'Physical', 'Technical')),
	CONSTRAINT "compliance_gaps_status_check" CHECK ("compliance_gaps"."status" in ('Open', 'In Progress', 'Closed')),
	CONSTRAINT "compliance_gaps_severity_check" CHECK ("compliance_gaps"."severity" in ('High', 'Medium', 'Low'))
);
--> statement-breakpoint
CREATE TABLE "patients" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "patients_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"mrn" text NOT NULL,
	"dob" date NOT NULL,
	"phone" text NOT NULL,
	"email" text,
	"allergies" text[] DEFAULT '{}'::text[] NOT NULL,
	"meds" text[] DEFAULT '{}'::text[] NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patients_mrn_unique" UNIQUE("mrn")
);
--> statement-breakpoint
CREATE TABLE "providers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "providers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"specialty" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "providers_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "practice_settings" (
	"practice_id" integer PRIMARY KEY NOT NULL,
	"appointment_minutes" integer DEFAULT 30 NOT NULL,
	"buffer_minutes" integer DEFAULT 10 NOT NULL,
	"workday_start" text DEFAULT '08:00' NOT NULL,
	"workday_end" text DEFAULT '17:00' NOT NULL,
	"working_days" text[] DEFAULT '{Mon,Tue,Wed,Thu,Fri}'::text[] NOT NULL,
	"notifications" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"integrations" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "practice_settings_duration_check" CHECK ("practice_settings"."appointment_minutes" in (15, 30, 45, 60)),
	CONSTRAINT "practice_settings_buffer_check" CHECK ("practice_settings"."buffer_minutes" in (0, 5, 10, 15))
);
--> statement-breakpoint
CREATE TABLE "user_settings" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"high_contrast" boolean DEFAULT false NOT NULL,
	"font_size" text DEFAULT 'medium' NOT NULL,
	"mfa_enabled" boolean DEFAULT false NOT NULL,
	CONSTRAINT "user_settings_font_size_check" CHECK ("user_settings"."font_size" in ('small', 'medium', 'large'))
);
--> statement-breakpoint
CREATE TABLE "encounters" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "encounters_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"patient_id" integer NOT NULL,
	"provider_id" integer NOT NULL,
	"encounter_date" date NOT NULL,
	"encounter_type" text NOT NULL,
	"chief_complaint" text NOT NULL,
	"diagnosis" text[] DEFAULT '{}'::text[] NOT NULL,
	"follow_up_due" date,
	"charges_captured" boolean DEFAULT true NOT NULL,
	CONSTRAINT "encounters_type_check" CHECK ("encounters"."encounter_type" in ('Office Visit', 'New Patient', 'Annual Wellness', 'Telehealth', 'Urgent Visit'))
);
--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_in_challenges" ADD CONSTRAINT "sign_in_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_in_lockouts" ADD CONSTRAINT "sign_in_lockouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authorizations" ADD CONSTRAINT "authorizations_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authorizations" ADD CONSTRAINT "authorizations_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_appeals" ADD CONSTRAINT "claim_appeals_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_appeals" ADD CONSTRAINT "claim_appeals_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_settings" ADD CONSTRAINT "user_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "encounters" ADD CONSTRAINT "encounters_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "encounters" ADD CONSTRAINT "encounters_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appointments_date_idx" ON "appointments" USING btree ("date","time");--> statement-breakpoint
CREATE INDEX "appointments_patient_idx" ON "appointments" USING btree ("patient_id","date");--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_provider_slot_uq" ON "appointments" USING btree ("provider_id","date","time") WHERE status not in ('Cancelled', 'Rescheduled', 'No-Show');--> statement-breakpoint
CREATE INDEX "audit_log_occurred_idx" ON "audit_log" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor");--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sign_in_challenges_user_idx" ON "sign_in_challenges" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "authorizations_status_idx" ON "authorizations" USING btree ("status","requested_on");--> statement-breakpoint
CREATE INDEX "authorizations_patient_idx" ON "authorizations" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "payments_patient_idx" ON "payments" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "payments_received_idx" ON "payments" USING btree ("received_on");--> statement-breakpoint
CREATE INDEX "claims_service_date_idx" ON "claims" USING btree ("service_date");--> statement-breakpoint
CREATE INDEX "claims_patient_idx" ON "claims" USING btree ("patient_id","service_date");--> statement-breakpoint
CREATE INDEX "claims_payer_idx" ON "claims" USING btree ("payer","service_date");--> statement-breakpoint
CREATE INDEX "claims_status_idx" ON "claims" USING btree ("status");--> statement-breakpoint
CREATE INDEX "claims_provider_idx" ON "claims" USING btree ("provider_id");--> statement-breakpoint
CREATE INDEX "patients_name_idx" ON "patients" USING btree ("name");--> statement-breakpoint
CREATE INDEX "encounters_follow_up_idx" ON "encounters" USING btree ("follow_up_due");--> statement-breakpoint
CREATE INDEX "encounters_patient_idx" ON "encounters" USING btree ("patient_id","encounter_date");