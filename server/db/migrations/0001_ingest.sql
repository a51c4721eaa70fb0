CREATE TABLE "events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"source_id" uuid NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"dedup_key" text,
	"ip" text,
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
	"raw" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ingest_batches" (
	"source_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"status" integer DEFAULT 200 NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ingest_batches_source_id_idempotency_key_pk" PRIMARY KEY("source_id","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "ingest_errors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source_id" uuid NOT NULL,
	"line" integer NOT NULL,
	"message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"token_hash" text NOT NULL,
	"token_prefix" text NOT NULL,
	"retention_days" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_usage" (
	"space_id" uuid NOT NULL,
	"month" text NOT NULL,
	"accepted" bigint DEFAULT 0 NOT NULL,
	"refused" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_usage_space_id_month_pk" PRIMARY KEY("space_id","month")
);
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ingest_batches" ADD CONSTRAINT "ingest_batches_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ingest_errors" ADD CONSTRAINT "ingest_errors_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sources" ADD CONSTRAINT "sources_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_usage" ADD CONSTRAINT "event_usage_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_space_time_idx" ON "events" USING btree ("space_id","time" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_source_received_idx" ON "events" USING btree ("source_id","received_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "events_source_dedup_idx" ON "events" USING btree ("source_id","dedup_key") WHERE "events"."dedup_key" is not null;--> statement-breakpoint
CREATE INDEX "ingest_errors_source_created_idx" ON "ingest_errors" USING btree ("source_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "sources_token_hash_idx" ON "sources" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "sources_space_idx" ON "sources" USING btree ("space_id");