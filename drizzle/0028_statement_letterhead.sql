ALTER TABLE "practice_settings" ADD COLUMN "name" text DEFAULT 'Riverside Family Practice' NOT NULL;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "address" text DEFAULT '1200 Main Street, Suite 200, Springfield, IL 62701' NOT NULL;--> statement-breakpoint
ALTER TABLE "practice_settings" ADD COLUMN "phone" text DEFAULT '(217) 555-0142' NOT NULL;