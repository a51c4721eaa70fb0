-- Alerts (issue #15): detection rules, the alerts they open (deduplicated by rule and group while not resolved),
-- the matching events kept as links, the one triage record every decision writes (alerts now, vulnerability
-- findings later), and the notification deliveries the jobs send and retry.
CREATE TABLE "alert_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL REFERENCES "spaces"("id") ON DELETE CASCADE,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"severity" text NOT NULL,
	"kind" text NOT NULL,
	"query" text DEFAULT '' NOT NULL,
	"threshold" integer,
	"window_minutes" integer,
	"group_by" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"source_id" uuid REFERENCES "sources"("id") ON DELETE SET NULL,
	"firewall_id" uuid REFERENCES "firewalls"("id") ON DELETE SET NULL,
	"title_template" text,
	"renotify_minutes" integer,
	"auto_resolve_minutes" integer,
	"channels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"evaluated_until" timestamp with time zone,
	"last_fired_at" timestamp with time zone,
	"created_by_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"created_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_rules_kind_check" CHECK ("kind" in ('match', 'threshold', 'silence')),
	CONSTRAINT "alert_rules_severity_check" CHECK ("severity" in ('critical', 'high', 'medium', 'low', 'info'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "alert_rules_space_name_idx" ON "alert_rules" ("space_id", lower("name"));
--> statement-breakpoint
-- Ingest reads a space's enabled rules with every batch.
CREATE INDEX "alert_rules_enabled_idx" ON "alert_rules" ("space_id", "kind") WHERE "enabled";
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL REFERENCES "spaces"("id") ON DELETE CASCADE,
	"rule_id" uuid REFERENCES "alert_rules"("id") ON DELETE SET NULL,
	"rule_name" text NOT NULL,
	"kind" text NOT NULL,
	"severity" text NOT NULL,
	"title" text NOT NULL,
	"group_key" text DEFAULT '' NOT NULL,
	"group_values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"assignee_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"snoozed_until" timestamp with time zone,
	"count" bigint DEFAULT 0 NOT NULL,
	"kept" integer DEFAULT 0 NOT NULL,
	"first_seen" timestamp with time zone NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	"covered_until" timestamp with time zone,
	"firewall_id" uuid REFERENCES "firewalls"("id") ON DELETE SET NULL,
	"mixed_firewalls" boolean DEFAULT false NOT NULL,
	"event_query" text DEFAULT '' NOT NULL,
	"last_notified_at" timestamp with time zone,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alerts_status_check" CHECK ("status" in ('open', 'acknowledged', 'resolved')),
	CONSTRAINT "alerts_count_check" CHECK ("count" >= 0)
);
--> statement-breakpoint
-- Deduplication: one alert per rule and group while it is open or acknowledged.
CREATE UNIQUE INDEX "alerts_active_group_idx" ON "alerts" ("rule_id", "group_key") WHERE "status" <> 'resolved' and "rule_id" is not null;
--> statement-breakpoint
CREATE INDEX "alerts_space_last_seen_idx" ON "alerts" ("space_id", "last_seen" DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX "alerts_space_status_idx" ON "alerts" ("space_id", "status", "severity");
--> statement-breakpoint
CREATE INDEX "alerts_snoozed_idx" ON "alerts" ("snoozed_until") WHERE "snoozed_until" is not null;
--> statement-breakpoint
CREATE TABLE "alert_events" (
	"alert_id" uuid NOT NULL REFERENCES "alerts"("id") ON DELETE CASCADE,
	"event_time" timestamp with time zone NOT NULL,
	"event_id" uuid NOT NULL,
	PRIMARY KEY ("alert_id", "event_time", "event_id")
);
--> statement-breakpoint
CREATE TABLE "triage_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL REFERENCES "spaces"("id") ON DELETE CASCADE,
	"subject_type" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"decision" text NOT NULL,
	"actor_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"actor_name" text,
	"reason" text,
	"until" timestamp with time zone,
	"scope" jsonb,
	"change" jsonb,
	"note" text,
	"revoked_at" timestamp with time zone,
	"revoked_by_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY NOT NULL
);
--> statement-breakpoint
CREATE INDEX "triage_subject_idx" ON "triage_records" ("subject_type", "subject_id", "at", "seq");
--> statement-breakpoint
-- Decisions in force (a suppression, an accepted risk) of a space: not revoked and with an expiry.
CREATE INDEX "triage_active_idx" ON "triage_records" ("space_id", "subject_type", "decision", "until") WHERE "revoked_at" is null and "until" is not null;
--> statement-breakpoint
CREATE TABLE "alert_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL REFERENCES "spaces"("id") ON DELETE CASCADE,
	"alert_id" uuid REFERENCES "alerts"("id") ON DELETE CASCADE,
	"rule_id" uuid REFERENCES "alert_rules"("id") ON DELETE SET NULL,
	"type" text NOT NULL,
	"channel" text NOT NULL,
	"target" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone,
	CONSTRAINT "alert_deliveries_status_check" CHECK ("status" in ('pending', 'delivered', 'failed'))
);
--> statement-breakpoint
CREATE INDEX "alert_deliveries_alert_idx" ON "alert_deliveries" ("alert_id", "created_at");
--> statement-breakpoint
CREATE INDEX "alert_deliveries_space_idx" ON "alert_deliveries" ("space_id", "created_at");
