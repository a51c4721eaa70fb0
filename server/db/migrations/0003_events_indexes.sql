DROP INDEX "events_space_time_idx";--> statement-breakpoint
CREATE INDEX "events_space_time_id_idx" ON "events" USING btree ("space_id","time" DESC NULLS FIRST,"id" DESC NULLS FIRST,"action");