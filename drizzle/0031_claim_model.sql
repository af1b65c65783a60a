CREATE TABLE "claim_lines" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claim_lines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"claim_id" integer NOT NULL,
	"line_number" integer NOT NULL,
	"procedure_code" text NOT NULL,
	"modifiers" text[] DEFAULT '{}'::text[] NOT NULL,
	"units" integer DEFAULT 1 NOT NULL,
	"charge_cents" integer NOT NULL,
	"diagnosis_pointers" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"service_date" date NOT NULL,
	"line_control_number" text NOT NULL,
	CONSTRAINT "claim_lines_line_control_number_unique" UNIQUE("line_control_number"),
	CONSTRAINT "claim_lines_line_number_check" CHECK ("claim_lines"."line_number" between 1 and 50),
	CONSTRAINT "claim_lines_units_check" CHECK ("claim_lines"."units" >= 1),
	CONSTRAINT "claim_lines_charge_check" CHECK ("claim_lines"."charge_cents" >= 0),
	CONSTRAINT "claim_lines_modifiers_check" CHECK (cardinality("claim_lines"."modifiers") <= 4),
	CONSTRAINT "claim_lines_pointers_check" CHECK (cardinality("claim_lines"."diagnosis_pointers") <= 4)
);
--> statement-breakpoint
CREATE TABLE "claim_scrubs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claim_scrubs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"claim_id" integer NOT NULL,
	"scrubbed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"scrubbed_by" integer,
	"clean" boolean NOT NULL,
	"edits" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"override_reason" text
);
--> statement-breakpoint
CREATE TABLE "coverages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "coverages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"patient_id" integer NOT NULL,
	"payer" text NOT NULL,
	"priority" integer DEFAULT 1 NOT NULL,
	"member_id" text NOT NULL,
	"group_number" text,
	"relationship" text DEFAULT 'self' NOT NULL,
	"subscriber_name" text,
	"subscriber_dob" date,
	"effective_on" date NOT NULL,
	"end_on" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coverages_priority_check" CHECK ("coverages"."priority" between 1 and 3),
	CONSTRAINT "coverages_relationship_check" CHECK ("coverages"."relationship" in ('self', 'spouse', 'child', 'other')),
	CONSTRAINT "coverages_member_id_check" CHECK (length(btrim("coverages"."member_id")) between 1 and 80),
	CONSTRAINT "coverages_subscriber_check" CHECK ("coverages"."relationship" = 'self' or ("coverages"."subscriber_name" is not null and "coverages"."subscriber_dob" is not null)),
	CONSTRAINT "coverages_dates_check" CHECK ("coverages"."end_on" is null or "coverages"."end_on" >= "coverages"."effective_on")
);
--> statement-breakpoint
ALTER TABLE "claims" DROP CONSTRAINT "claims_status_check";--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "coverage_id" integer;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "place_of_service" text DEFAULT '11' NOT NULL;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "frequency_code" text DEFAULT '1' NOT NULL;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "original_claim_number" text;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "diagnoses" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "first_scrub_clean" boolean;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "sex" text DEFAULT 'U' NOT NULL;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "address_line1" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "city" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "state" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "zip" text;--> statement-breakpoint
ALTER TABLE "payers" ADD COLUMN "claim_filing_indicator" text DEFAULT 'CI' NOT NULL;--> statement-breakpoint
ALTER TABLE "providers" ADD COLUMN "npi" text;--> statement-breakpoint
ALTER TABLE "providers" ADD COLUMN "taxonomy_code" text;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "billing_name" text;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "billing_npi" text;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "tax_id" text;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "taxonomy_code" text;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "billing_address_line1" text;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "billing_city" text;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "billing_state" text;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "billing_zip" text;--> statement-breakpoint
ALTER TABLE "claim_lines" ADD CONSTRAINT "claim_lines_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_scrubs" ADD CONSTRAINT "claim_scrubs_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_scrubs" ADD CONSTRAINT "claim_scrubs_scrubbed_by_users_id_fk" FOREIGN KEY ("scrubbed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coverages" ADD CONSTRAINT "coverages_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coverages" ADD CONSTRAINT "coverages_payer_payers_name_fk" FOREIGN KEY ("payer") REFERENCES "public"."payers"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "claim_lines_claim_line_uq" ON "claim_lines" USING btree ("claim_id","line_number");--> statement-breakpoint
CREATE INDEX "claim_scrubs_claim_idx" ON "claim_scrubs" USING btree ("claim_id","id");--> statement-breakpoint
CREATE INDEX "coverages_patient_idx" ON "coverages" USING btree ("patient_id","priority");--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_coverage_id_coverages_id_fk" FOREIGN KEY ("coverage_id") REFERENCES "public"."coverages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "claims_coverage_idx" ON "claims" USING btree ("coverage_id");--> statement-breakpoint
CREATE UNIQUE INDEX "providers_npi_unique" ON "providers" USING btree ("npi") WHERE "providers"."npi" is not null;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_place_of_service_check" CHECK ("claims"."place_of_service" ~ '^[0-9]{2}$');--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_frequency_check" CHECK ("claims"."frequency_code" in ('1', '7', '8'));--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_diagnoses_check" CHECK (cardinality("claims"."diagnoses") <= 12);--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_status_check" CHECK ("claims"."status" in ('Draft', 'Ready', 'Submitted', 'Accepted', 'Rejected', 'Pending', 'Paid', 'Partially Paid', 'Denied', 'Appealed', 'Written Off', 'Closed'));--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_sex_check" CHECK ("patients"."sex" in ('F', 'M', 'U'));--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_state_check" CHECK ("patients"."state" is null or "patients"."state" ~ '^[A-Z]{2}$');--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_zip_check" CHECK ("patients"."zip" is null or "patients"."zip" ~ '^[0-9]{5}([0-9]{4})?$');--> statement-breakpoint
ALTER TABLE "payers" ADD CONSTRAINT "payers_claim_filing_indicator_check" CHECK ("payers"."claim_filing_indicator" in ('CI', 'MB', 'MC', 'BL', 'HM', '16', 'CH', 'VA', 'WC', '12', '13', '14', '11', 'OF', 'ZZ', '09'));--> statement-breakpoint
ALTER TABLE "providers" ADD CONSTRAINT "providers_npi_check" CHECK ("providers"."npi" is null or "providers"."npi" ~ '^[12][0-9]{9}$');--> statement-breakpoint
ALTER TABLE "providers" ADD CONSTRAINT "providers_taxonomy_check" CHECK ("providers"."taxonomy_code" is null or "providers"."taxonomy_code" ~ '^[0-9]{3}[0-9A-Z]{6}X$');--> statement-breakpoint
ALTER TABLE "practice_settings" ADD CONSTRAINT "practice_settings_billing_npi_check" CHECK ("practice_settings"."billing_npi" is null or "practice_settings"."billing_npi" ~ '^[12][0-9]{9}$');--> statement-breakpoint
ALTER TABLE "practice_settings" ADD CONSTRAINT "practice_settings_tax_id_check" CHECK ("practice_settings"."tax_id" is null or "practice_settings"."tax_id" ~ '^[0-9]{9}$');--> statement-breakpoint
ALTER TABLE "practice_settings" ADD CONSTRAINT "practice_settings_taxonomy_check" CHECK ("practice_settings"."taxonomy_code" is null or "practice_settings"."taxonomy_code" ~ '^[0-9]{3}[0-9A-Z]{6}X$');--> statement-breakpoint
-- Every claim so far billed one service: it becomes the claim's line 1, with the claim's code, charge and
-- date; its line control number is the patient control number and the line's number. Diagnoses were not
-- recorded before: the scrubber asks for them before such a claim is sent.
INSERT INTO claim_lines (claim_id, line_number, procedure_code, units, charge_cents, service_date, line_control_number)
SELECT id, 1, procedure_code, 1, billed_cents, service_date, account_number || '-1' FROM claims ORDER BY id;
--> statement-breakpoint
-- The X12 claim filing indicator of the payers the practice started with (SBR09).
UPDATE payers SET claim_filing_indicator = CASE name
  WHEN 'Medicare' THEN 'MB' WHEN 'Medicaid' THEN 'MC' WHEN 'Blue Cross Blue Shield' THEN 'BL'
  WHEN 'Tricare' THEN 'CH' WHEN 'Kaiser Permanente' THEN 'HM' WHEN 'Self-Pay' THEN '09' ELSE 'CI' END;
--> statement-breakpoint
-- Ten times the typical charge of the codes the practice now bills as well.
INSERT INTO charge_ceilings (procedure_code, ceiling_cents) VALUES
  ('99391', 205000), ('99392', 215000), ('99393', 215000), ('99394', 235000), ('99395', 235000),
  ('99397', 260000), ('84443', 65000), ('87804', 42000), ('94010', 95000), ('93306', 620000),
  ('93015', 320000), ('95810', 980000), ('95004', 240000)
ON CONFLICT (procedure_code) DO NOTHING;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION claims_totals_from_lines() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  touched integer[];
BEGIN
  -- The claims whose lines changed (a line moved between claims changes both).
  IF TG_OP = 'INSERT' THEN
    touched := ARRAY(SELECT DISTINCT claim_id FROM new_rows);
  ELSIF TG_OP = 'DELETE' THEN
    touched := ARRAY(SELECT DISTINCT claim_id FROM old_rows);
  ELSE
    touched := ARRAY(SELECT claim_id FROM new_rows UNION SELECT claim_id FROM old_rows);
  END IF;
  UPDATE claims c SET billed_cents = x.billed, procedure_code = coalesce(x.first_code, c.procedure_code)
  FROM (
    SELECT t.id,
      coalesce((SELECT sum(l.charge_cents) FROM claim_lines l WHERE l.claim_id = t.id), 0)::integer AS billed,
      (SELECT l.procedure_code FROM claim_lines l WHERE l.claim_id = t.id ORDER BY l.line_number LIMIT 1) AS first_code
    FROM unnest(touched) AS t(id)
  ) x
  WHERE c.id = x.id
    AND (c.billed_cents, c.procedure_code) IS DISTINCT FROM (x.billed, coalesce(x.first_code, c.procedure_code));
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER claim_lines_totals_insert AFTER INSERT ON claim_lines
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION claims_totals_from_lines();
--> statement-breakpoint
CREATE TRIGGER claim_lines_totals_update AFTER UPDATE ON claim_lines
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION claims_totals_from_lines();
--> statement-breakpoint
CREATE TRIGGER claim_lines_totals_delete AFTER DELETE ON claim_lines
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION claims_totals_from_lines();
--> statement-breakpoint
-- docs/caching.md: every table notifies its committed changes (migration 0012).
CREATE TRIGGER coverages_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON coverages
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();--> statement-breakpoint
CREATE TRIGGER claim_lines_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON claim_lines
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();--> statement-breakpoint
CREATE TRIGGER claim_scrubs_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON claim_scrubs
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();
