-- Dashboards (issue #17): a space's dashboards, each its whole model as JSON with a version raised by every save, at
-- most one the space's default. Every existing space gets the overview template as its default (the JSON below is
-- dashboardTemplates.overview.model; server/services/dashboards/seed.test.ts checks the two never drift).
CREATE TABLE "dashboards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"title" text NOT NULL,
	"model" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid
);
--> statement-breakpoint
ALTER TABLE "dashboards" ADD CONSTRAINT "dashboards_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboards" ADD CONSTRAINT "dashboards_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboards" ADD CONSTRAINT "dashboards_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dashboards_space_default_idx" ON "dashboards" USING btree ("space_id") WHERE "dashboards"."is_default";--> statement-breakpoint
CREATE INDEX "dashboards_space_idx" ON "dashboards" USING btree ("space_id");--> statement-breakpoint
INSERT INTO "dashboards" ("space_id", "title", "model", "version", "is_default", "created_by", "updated_by")
SELECT "id", 'Overview', '{"schemaVersion":1,"title":"Overview","description":"Requests, blocks and where they come from over the last 24 hours.","timeRange":{"from":"now-24h","to":"now"},"refreshSeconds":60,"variables":[],"widgets":[{"id":"requests","title":"Requests","type":"stat","gridPos":{"x":0,"y":0,"w":6,"h":4},"query":{"metric":"count","groupBy":{"kind":"none"},"filter":""}},{"id":"blocked","title":"Blocked requests","type":"stat","gridPos":{"x":6,"y":0,"w":6,"h":4},"query":{"metric":"count","groupBy":{"kind":"none"},"filter":"action:blocked"}},{"id":"clients","title":"Distinct client IPs","type":"stat","gridPos":{"x":12,"y":0,"w":6,"h":4},"query":{"metric":"distinct","field":"ip","groupBy":{"kind":"none"},"filter":""}},{"id":"actions","title":"Actions","type":"pie","gridPos":{"x":18,"y":0,"w":6,"h":8},"query":{"metric":"count","groupBy":{"kind":"field","field":"action"},"filter":""}},{"id":"requests-over-time","title":"Requests over time","type":"areaspline","gridPos":{"x":0,"y":4,"w":18,"h":8},"query":{"metric":"count","groupBy":{"kind":"time","interval":"auto"},"filter":""}},{"id":"countries","title":"Blocked requests by country","type":"map","gridPos":{"x":0,"y":12,"w":12,"h":10},"query":{"metric":"count","groupBy":{"kind":"field","field":"country","limit":100},"filter":"action:blocked"}},{"id":"top-rules","title":"Top rules","type":"bar","gridPos":{"x":12,"y":12,"w":12,"h":10},"query":{"metric":"count","groupBy":{"kind":"field","field":"ruleIds","limit":10},"filter":"action:blocked"}},{"id":"top-ips","title":"Top client IPs","type":"table","gridPos":{"x":0,"y":22,"w":24,"h":8},"query":{"metric":"count","groupBy":{"kind":"field","field":"ip","limit":10},"filter":""}}]}'::jsonb, 1, true, NULL, NULL FROM "spaces";
