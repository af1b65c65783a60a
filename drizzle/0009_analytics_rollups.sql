CREATE TABLE "analytics_ar_daily" (
	"service_date" date PRIMARY KEY NOT NULL,
	"outstanding_cents" bigint DEFAULT 0 NOT NULL,
	"open_denials_cents" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_ar_provider" (
	"provider_id" integer PRIMARY KEY NOT NULL,
	"outstanding_cents" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_daily" (
	"day" date NOT NULL,
	"provider_id" integer NOT NULL,
	"charge_claims" bigint DEFAULT 0 NOT NULL,
	"charge_paid_claims" bigint DEFAULT 0 NOT NULL,
	"charge_denied_claims" bigint DEFAULT 0 NOT NULL,
	"charge_billed_cents" bigint DEFAULT 0 NOT NULL,
	"submitted_claims" bigint DEFAULT 0 NOT NULL,
	"submitted_clean_claims" bigint DEFAULT 0 NOT NULL,
	"submitted_cycle_days" bigint DEFAULT 0 NOT NULL,
	"adjudicated_claims" bigint DEFAULT 0 NOT NULL,
	"adjudicated_denied_claims" bigint DEFAULT 0 NOT NULL,
	"adjudicated_first_pass_claims" bigint DEFAULT 0 NOT NULL,
	"adjudicated_collected_cents" bigint DEFAULT 0 NOT NULL,
	"adjudicated_collectible_cents" bigint DEFAULT 0 NOT NULL,
	"adjudicated_patient_collected_cents" bigint DEFAULT 0 NOT NULL,
	"adjudicated_patient_billed_cents" bigint DEFAULT 0 NOT NULL,
	"written_off_lost_cents" bigint DEFAULT 0 NOT NULL,
	"collections_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_daily_day_provider_id_pk" PRIMARY KEY("day","provider_id")
);
--> statement-breakpoint
CREATE TABLE "analytics_denials_daily" (
	"adjudicated_on" date NOT NULL,
	"reason_code" text NOT NULL,
	"denial_description" text,
	"claims" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_denials_daily_key" UNIQUE NULLS NOT DISTINCT("adjudicated_on","reason_code","denial_description")
);
--> statement-breakpoint
CREATE TABLE "claims_daily_rollup" (
	"service_date" date NOT NULL,
	"payer" text NOT NULL,
	"reason_code" text,
	"claims" bigint DEFAULT 0 NOT NULL,
	"paid_claims" bigint DEFAULT 0 NOT NULL,
	"denied_claims" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "claims_daily_rollup_key" UNIQUE NULLS NOT DISTINCT("service_date","payer","reason_code")
);
--> statement-breakpoint
CREATE TABLE "claims_status_rollup" (
	"payer" text NOT NULL,
	"status" text NOT NULL,
	"reason_code" text,
	"denied_on_first_adjudication" boolean NOT NULL,
	"claims" bigint DEFAULT 0 NOT NULL,
	"billed_cents" bigint DEFAULT 0 NOT NULL,
	"paid_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "claims_status_rollup_key" UNIQUE NULLS NOT DISTINCT("payer","status","reason_code","denied_on_first_adjudication")
);
