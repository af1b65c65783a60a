DROP INDEX "appointments_date_idx";--> statement-breakpoint
DROP INDEX "encounters_follow_up_idx";--> statement-breakpoint
CREATE INDEX "appointments_date_time_id_idx" ON "appointments" USING btree ("date","time","id");--> statement-breakpoint
CREATE INDEX "encounters_follow_up_id_idx" ON "encounters" USING btree ("follow_up_due","id");--> statement-breakpoint
CREATE INDEX "encounters_provider_follow_up_idx" ON "encounters" USING btree ("provider_id","follow_up_due","id");