CREATE TABLE "charge_ceilings" (
	"procedure_code" text PRIMARY KEY NOT NULL,
	"ceiling_cents" integer NOT NULL,
	CONSTRAINT "charge_ceilings_positive_check" CHECK ("charge_ceilings"."ceiling_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "payers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"payer_id" text,
	"timely_filing_days" integer DEFAULT 365 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "payers_name_unique" UNIQUE("name"),
	CONSTRAINT "payers_timely_filing_check" CHECK ("payers"."timely_filing_days" between 1 and 3650)
);
--> statement-breakpoint
ALTER TABLE "claims" DROP CONSTRAINT "claims_payer_check";--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "voided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "voided_by" integer;--> statement-breakpoint
ALTER TABLE "claims" ADD COLUMN "void_reason" text;--> statement-breakpoint
CREATE UNIQUE INDEX "payers_payer_id_unique" ON "payers" USING btree ("payer_id") WHERE "payers"."payer_id" is not null;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_voided_by_users_id_fk" FOREIGN KEY ("voided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- hand-written below
-- The payers claims and imports name (docs/payers.md): the ten payers of the fixed list they replace, with
-- the common timely-filing limits; electronic payer ids where one id serves the whole country.
INSERT INTO payers (name, payer_id, timely_filing_days) VALUES
  ('Medicare', NULL, 365),
  ('Medicaid', NULL, 365),
  ('Aetna', '60054', 90),
  ('Blue Cross Blue Shield', NULL, 180),
  ('UnitedHealthcare', '87726', 90),
  ('Cigna', '62308', 90),
  ('Humana', '61101', 180),
  ('Kaiser Permanente', NULL, 90),
  ('Tricare', NULL, 365),
  ('Self-Pay', NULL, 365)
ON CONFLICT (name) DO NOTHING;--> statement-breakpoint
-- Ten times the practice's typical charge of its common codes: an import above it is flagged, not refused.
INSERT INTO charge_ceilings (procedure_code, ceiling_cents) VALUES
  ('99213', 149000), ('99214', 214000), ('99215', 280000), ('99212', 90000), ('99203', 165000),
  ('99204', 250000), ('99396', 246000), ('G0439', 175000), ('80053', 116000), ('80061', 86000),
  ('85025', 60000), ('83036', 57000), ('93000', 65000), ('36415', 17000), ('90471', 47000),
  ('90686', 40000), ('87880', 35000), ('96127', 25000)
ON CONFLICT (procedure_code) DO NOTHING;--> statement-breakpoint
-- docs/caching.md: every table notifies its committed changes (migration 0012).
CREATE TRIGGER payers_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON payers
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();--> statement-breakpoint
CREATE TRIGGER charge_ceilings_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON charge_ceilings
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_change();
