DROP INDEX "patients_name_idx";--> statement-breakpoint
DROP INDEX "authorizations_status_idx";--> statement-breakpoint
CREATE INDEX "authorizations_service_id_idx" ON "authorizations" USING btree ("service","id");--> statement-breakpoint
CREATE INDEX "authorizations_payer_id_idx" ON "authorizations" USING btree ("payer","id");--> statement-breakpoint
CREATE INDEX "authorizations_decided_age_idx" ON "authorizations" USING btree (("decided_on" - "requested_on"),"id") WHERE decided_on is not null;--> statement-breakpoint
CREATE INDEX "authorizations_pending_requested_idx" ON "authorizations" USING btree ("requested_on" DESC NULLS FIRST,"id") WHERE decided_on is null;--> statement-breakpoint
CREATE INDEX "authorizations_service_trgm_idx" ON "authorizations" USING gin ("service" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "claims_days_ar_resolved_idx" ON "claims" USING btree (greatest(0, ("resolved_on" - "service_date")),"id") WHERE resolved_on is not null;--> statement-breakpoint
CREATE INDEX "claims_open_service_date_idx" ON "claims" USING btree ("service_date" DESC NULLS FIRST,"id") WHERE resolved_on is null;--> statement-breakpoint
CREATE INDEX "claims_resolved_on_idx" ON "claims" USING btree ("resolved_on") WHERE resolved_on is not null;--> statement-breakpoint
CREATE INDEX "patients_name_id_idx" ON "patients" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "patients_dob_name_id_idx" ON "patients" USING btree ("dob","name","id");--> statement-breakpoint
CREATE INDEX "patients_dob_year_name_id_idx" ON "patients" USING btree ((extract(year from "dob")),"name","id");--> statement-breakpoint
CREATE INDEX "patients_mrn_trgm_idx" ON "patients" USING gin ("mrn" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "patients_phone_trgm_idx" ON "patients" USING gin ("phone" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "patients_phone_digits_trgm_idx" ON "patients" USING gin (regexp_replace("phone", '\D', '', 'g') gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "authorizations_status_idx" ON "authorizations" USING btree ("status","requested_on","id");