DROP INDEX "claims_service_date_idx";--> statement-breakpoint
DROP INDEX "claims_patient_idx";--> statement-breakpoint
DROP INDEX "claims_payer_idx";--> statement-breakpoint
DROP INDEX "claims_status_idx";--> statement-breakpoint
DROP INDEX "claims_provider_idx";--> statement-breakpoint
CREATE INDEX "claim_appeals_claim_idx" ON "claim_appeals" USING btree ("claim_id");--> statement-breakpoint
CREATE INDEX "claims_search_trgm_idx" ON "claims" USING gin (("account_number" || E'\n' || "procedure_code" || E'\n' || coalesce("reason_code", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "claims_reason_code_idx" ON "claims" USING btree ("reason_code");--> statement-breakpoint
CREATE INDEX "claims_billed_id_idx" ON "claims" USING btree ("billed_cents","id");--> statement-breakpoint
CREATE INDEX "claims_paid_id_idx" ON "claims" USING btree ("paid_cents","id");--> statement-breakpoint
CREATE INDEX "claims_procedure_id_idx" ON "claims" USING btree ("procedure_code","id");--> statement-breakpoint
CREATE INDEX "claims_denied_idx" ON "claims" USING btree ("payer","reason_code","billed_cents") WHERE "claims"."denied_on_first_adjudication";--> statement-breakpoint
CREATE INDEX "patients_name_trgm_idx" ON "patients" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "claims_service_date_idx" ON "claims" USING btree ("service_date","id");--> statement-breakpoint
CREATE INDEX "claims_patient_idx" ON "claims" USING btree ("patient_id","service_date","id");--> statement-breakpoint
CREATE INDEX "claims_payer_idx" ON "claims" USING btree ("payer","service_date","id");--> statement-breakpoint
CREATE INDEX "claims_status_idx" ON "claims" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "claims_provider_idx" ON "claims" USING btree ("provider_id","id");