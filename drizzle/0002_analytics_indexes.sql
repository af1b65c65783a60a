CREATE INDEX "payments_claim_idx" ON "payments" USING btree ("claim_id");--> statement-breakpoint
CREATE INDEX "claims_analytics_submitted_idx" ON "claims" USING btree ("submitted_on");--> statement-breakpoint
CREATE INDEX "claims_analytics_adjudicated_idx" ON "claims" USING btree ("adjudicated_on");--> statement-breakpoint
CREATE INDEX "claims_analytics_open_ar_idx" ON "claims" USING btree ("service_date") WHERE resolved_on is null;--> statement-breakpoint
CREATE INDEX "encounters_date_idx" ON "encounters" USING btree ("encounter_date");