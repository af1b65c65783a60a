CREATE TABLE "hipaa_audit_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "hipaa_audit_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"reference" text NOT NULL,
	"safeguard" text NOT NULL,
	"requirement" text NOT NULL,
	"status" text NOT NULL,
	"evidence" text NOT NULL,
	CONSTRAINT "hipaa_audit_items_reference_unique" UNIQUE("reference"),
	CONSTRAINT "hipaa_audit_items_safeguard_check" CHECK ("hipaa_audit_items"."safeguard" in ('Administrative', 'Physical', 'Technical')),
	CONSTRAINT "hipaa_audit_items_status_check" CHECK ("hipaa_audit_items"."status" in ('Compliant', 'Partial', 'Not compliant'))
);
--> statement-breakpoint
CREATE TABLE "wcag_checks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "wcag_checks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"criterion" text NOT NULL,
	"title" text NOT NULL,
	"level" text NOT NULL,
	"status" text NOT NULL,
	"note" text NOT NULL,
	CONSTRAINT "wcag_checks_criterion_unique" UNIQUE("criterion"),
	CONSTRAINT "wcag_checks_level_check" CHECK ("wcag_checks"."level" in ('A', 'AA')),
	CONSTRAINT "wcag_checks_status_check" CHECK ("wcag_checks"."status" in ('Pass', 'Partial', 'Fail'))
);
