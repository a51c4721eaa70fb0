-- The events store (issue #14): events partitioned by month on time, the raw record in a side table, and
-- rollups (per minute, per hour, per day) maintained by ingest in the same transaction. space_id leads every
-- key and index, so a distributed PostgreSQL (Citus) can shard every table by space (docs/scale.md).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
ALTER TABLE "events" RENAME TO "events_unpartitioned";
--> statement-breakpoint
ALTER TABLE "events_unpartitioned" RENAME CONSTRAINT "events_pkey" TO "events_unpartitioned_pkey";
--> statement-breakpoint
DROP INDEX "events_space_time_id_idx";
--> statement-breakpoint
DROP INDEX "events_space_firewall_time_idx";
--> statement-breakpoint
DROP INDEX "events_source_received_idx";
--> statement-breakpoint
DROP INDEX "events_tags_idx";
--> statement-breakpoint
DROP INDEX "events_rule_ids_idx";
--> statement-breakpoint
DROP INDEX "events_source_dedup_idx";
--> statement-breakpoint
-- Every table of the store references its source by (space_id, source_id): deleting a source (or its space) deletes
-- its events, raw records and rollups through an index that leads with space_id, and a row costs one check.
CREATE UNIQUE INDEX "sources_space_id_id_idx" ON "sources" ("space_id", "id");
--> statement-breakpoint
CREATE TABLE "events" (
	"space_id" uuid NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"source_id" uuid NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"dedup_key" text,
	"ip" text,
	-- The address as inet where the text is one (the query language's patterns), for `ip:` ranges off an index.
	"ip_net" inet GENERATED ALWAYS AS (CASE WHEN "ip" ~ '^((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$' OR "ip" ~ '^(([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:(:[0-9a-fA-F]{1,4}){1,6}|:((:[0-9a-fA-F]{1,4}){1,7}|:)|::([fF]{4}(:0{1,4})?:)?((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])|([0-9a-fA-F]{1,4}:){1,4}:((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9]))$' THEN "ip"::inet END) STORED,
	"country" char(2),
	"method" text,
	"host" text,
	"path" text,
	"status" integer,
	"action" text NOT NULL,
	"severity" text NOT NULL,
	"rule_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"message" text,
	"user_agent" text,
	"firewall_id" uuid,
	CONSTRAINT "events_source_fk" FOREIGN KEY ("space_id", "source_id") REFERENCES "sources"("space_id", "id") ON DELETE CASCADE,
	CONSTRAINT "events_pkey" PRIMARY KEY ("space_id", "id", "time")
) PARTITION BY RANGE ("time");
--> statement-breakpoint
CREATE TABLE "events_default" PARTITION OF "events" DEFAULT;
--> statement-breakpoint
CREATE INDEX "events_space_time_id_idx" ON "events" ("space_id", "time" DESC, "id" DESC, "action");
--> statement-breakpoint
CREATE INDEX "events_space_firewall_time_idx" ON "events" ("space_id", "firewall_id", "time" DESC, "id" DESC) WHERE "firewall_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "events_space_source_received_idx" ON "events" ("space_id", "source_id", "received_at" DESC);
--> statement-breakpoint
CREATE INDEX "events_space_ip_idx" ON "events" ("space_id", "ip_net", "time") WHERE "ip_net" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "events_tags_idx" ON "events" USING gin ("tags");
--> statement-breakpoint
CREATE INDEX "events_rule_ids_idx" ON "events" USING gin ("rule_ids");
--> statement-breakpoint
CREATE INDEX "events_text_idx" ON "events" USING gin ((coalesce("message", '') || chr(10) || coalesce("path", '') || chr(10) || coalesce("host", '') || chr(10) || coalesce("user_agent", '')) gin_trgm_ops);
--> statement-breakpoint
CREATE UNIQUE INDEX "events_dedup_idx" ON "events" ("space_id", "source_id", "dedup_key", "time");
--> statement-breakpoint
CREATE TABLE "event_raw" (
	"space_id" uuid NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"id" uuid NOT NULL,
	"source_id" uuid NOT NULL,
	"raw" jsonb NOT NULL,
	CONSTRAINT "event_raw_source_fk" FOREIGN KEY ("space_id", "source_id") REFERENCES "sources"("space_id", "id") ON DELETE CASCADE,
	CONSTRAINT "event_raw_pkey" PRIMARY KEY ("space_id", "id", "time")
) PARTITION BY RANGE ("time");
--> statement-breakpoint
CREATE TABLE "event_raw_default" PARTITION OF "event_raw" DEFAULT;
--> statement-breakpoint
CREATE TABLE "event_rollup_minute" (
	"space_id" uuid NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"source_id" uuid NOT NULL,
	"firewall_id" uuid,
	"action" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "event_rollup_minute_source_fk" FOREIGN KEY ("space_id", "source_id") REFERENCES "sources"("space_id", "id") ON DELETE CASCADE
);
--> statement-breakpoint
CREATE UNIQUE INDEX "event_rollup_minute_key" ON "event_rollup_minute" ("space_id", "bucket", "source_id", "firewall_id", "action") NULLS NOT DISTINCT;
--> statement-breakpoint
CREATE TABLE "event_rollup_hour" (
	"space_id" uuid NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"source_id" uuid NOT NULL,
	"firewall_id" uuid,
	"action" text NOT NULL,
	"facet" text NOT NULL,
	"value" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "event_rollup_hour_source_fk" FOREIGN KEY ("space_id", "source_id") REFERENCES "sources"("space_id", "id") ON DELETE CASCADE
);
--> statement-breakpoint
CREATE UNIQUE INDEX "event_rollup_hour_key" ON "event_rollup_hour" ("space_id", "facet", "bucket", "source_id", "firewall_id", "action", "value") NULLS NOT DISTINCT;
--> statement-breakpoint
CREATE TABLE "event_rollup_day" (
	"space_id" uuid NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"source_id" uuid NOT NULL,
	"firewall_id" uuid,
	"action" text NOT NULL,
	"facet" text NOT NULL,
	"value" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "event_rollup_day_source_fk" FOREIGN KEY ("space_id", "source_id") REFERENCES "sources"("space_id", "id") ON DELETE CASCADE
);
--> statement-breakpoint
CREATE UNIQUE INDEX "event_rollup_day_key" ON "event_rollup_day" ("space_id", "facet", "bucket", "source_id", "firewall_id", "action", "value") NULLS NOT DISTINCT;
--> statement-breakpoint
INSERT INTO "events" ("space_id", "time", "id", "source_id", "received_at", "dedup_key", "ip", "country", "method", "host", "path", "status", "action", "severity", "rule_ids", "tags", "message", "user_agent", "firewall_id")
	SELECT "space_id", "time", "id", "source_id", "received_at", "dedup_key", "ip", "country", "method", "host", "path", "status", "action", "severity", "rule_ids", "tags", "message", "user_agent", "firewall_id" FROM "events_unpartitioned";
--> statement-breakpoint
INSERT INTO "event_raw" ("space_id", "time", "id", "source_id", "raw") SELECT "space_id", "time", "id", "source_id", "raw" FROM "events_unpartitioned";
--> statement-breakpoint
DROP TABLE "events_unpartitioned";
--> statement-breakpoint
-- The rollups of the events moved above (server/services/events/rollups.ts writes the same statements).
insert into event_rollup_minute (space_id, bucket, source_id, firewall_id, action, n)
	select space_id, date_bin('1 minute', time, timestamptz '2000-01-01T00:00:00Z'), source_id, firewall_id, action, count(*)
	from events group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
	on conflict (space_id, bucket, source_id, firewall_id, action) do update
	  set n = event_rollup_minute.n + excluded.n;
--> statement-breakpoint
WITH facet_rows AS (select e.space_id, e.time, e.source_id, e.firewall_id, e.action, f.facet, f.value
	from events e cross join lateral (
	  select 'severity'::text as facet, e.severity::text as value
	  union all select 'country', e.country::text where e.country is not null
	  union all select 'host', e.host where e.host is not null
	  union all select 'ip', e.ip where e.ip is not null
	  union all select 'rule', r::text from unnest(e.rule_ids) as r where r is not null
	  union all select 'tag', t from unnest(e.tags) as t where t is not null
	) f)
insert into event_rollup_hour (space_id, bucket, source_id, firewall_id, action, facet, value, n)
	select space_id, date_bin('1 hour', time, timestamptz '2000-01-01T00:00:00Z'), source_id, firewall_id, action, facet, value, count(*)
	from facet_rows group by 1, 2, 3, 4, 5, 6, 7 order by 1, 2, 3, 4, 5, 6, 7
	on conflict (space_id, bucket, source_id, firewall_id, action, facet, value) do update
	  set n = event_rollup_hour.n + excluded.n;
--> statement-breakpoint
WITH facet_rows AS (select e.space_id, e.time, e.source_id, e.firewall_id, e.action, f.facet, f.value
	from events e cross join lateral (
	  select 'severity'::text as facet, e.severity::text as value
	  union all select 'country', e.country::text where e.country is not null
	  union all select 'host', e.host where e.host is not null
	  union all select 'ip', e.ip where e.ip is not null
	  union all select 'rule', r::text from unnest(e.rule_ids) as r where r is not null
	  union all select 'tag', t from unnest(e.tags) as t where t is not null
	) f)
insert into event_rollup_day (space_id, bucket, source_id, firewall_id, action, facet, value, n)
	select space_id, date_bin('1 day', time, timestamptz '2000-01-01T00:00:00Z'), source_id, firewall_id, action, facet, value, count(*)
	from facet_rows group by 1, 2, 3, 4, 5, 6, 7 order by 1, 2, 3, 4, 5, 6, 7
	on conflict (space_id, bucket, source_id, firewall_id, action, facet, value) do update
	  set n = event_rollup_day.n + excluded.n;

