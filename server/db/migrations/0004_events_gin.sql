CREATE INDEX "events_tags_idx" ON "events" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "events_rule_ids_idx" ON "events" USING gin ("rule_ids");