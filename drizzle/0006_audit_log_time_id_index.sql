DROP INDEX "audit_log_occurred_idx";--> statement-breakpoint
CREATE INDEX "audit_log_occurred_id_idx" ON "audit_log" USING btree ("occurred_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);