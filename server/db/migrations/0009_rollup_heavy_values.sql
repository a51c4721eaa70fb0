-- The client-address facet of a long range without reading every address-day (issue #14). A range's top addresses
-- are found among its heavy rows (an address with at least 16 events in a day, or 2 in an hour), whose exact
-- totals are then read by address; every other address is bounded by those thresholds, and the facet falls back to
-- counting every row when the bound does not settle the top N (server/services/events/heavy-values.ts). Both
-- indexes are partial, on the ip rows only, and lead with space_id like every index of the store.
CREATE INDEX "event_rollup_day_heavy_ip_idx" ON "event_rollup_day" ("space_id", "bucket") INCLUDE ("value") WHERE "facet" = 'ip' AND "n" >= 16;
--> statement-breakpoint
CREATE INDEX "event_rollup_hour_heavy_ip_idx" ON "event_rollup_hour" ("space_id", "bucket") INCLUDE ("value") WHERE "facet" = 'ip' AND "n" >= 2;
--> statement-breakpoint
CREATE INDEX "event_rollup_day_ip_value_idx" ON "event_rollup_day" ("space_id", "value", "bucket") INCLUDE ("source_id", "firewall_id", "action", "n") WHERE "facet" = 'ip';
--> statement-breakpoint
CREATE INDEX "event_rollup_hour_ip_value_idx" ON "event_rollup_hour" ("space_id", "value", "bucket") INCLUDE ("source_id", "firewall_id", "action", "n") WHERE "facet" = 'ip';
