-- Vulnerabilities (issue #16): the OSV library of a space and its imports, assets with their inventories (current
-- and replaced), assessments (the trend's points), findings (triaged through the one triage record) and the virtual
-- patches that mitigate them on a firewall.
CREATE TABLE "assessments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"asset_id" uuid,
	"trigger" text NOT NULL,
	"assets" integer DEFAULT 0 NOT NULL,
	"components" integer DEFAULT 0 NOT NULL,
	"findings_new" integer DEFAULT 0 NOT NULL,
	"findings_fixed" integer DEFAULT 0 NOT NULL,
	"findings_reopened" integer DEFAULT 0 NOT NULL,
	"open_by_severity" jsonb NOT NULL,
	"duration_ms" integer DEFAULT 0 NOT NULL,
	"started_by_id" uuid,
	"started_by_name" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "asset_components" (
	"asset_id" uuid NOT NULL,
	"key" text NOT NULL,
	"purl" text,
	"ecosystem" text NOT NULL,
	"name" text NOT NULL,
	"package_key" text NOT NULL,
	"version" text NOT NULL,
	CONSTRAINT "asset_components_asset_id_key_pk" PRIMARY KEY("asset_id","key")
);
--> statement-breakpoint
CREATE TABLE "asset_inventories" (
	"asset_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"source" text NOT NULL,
	"sbom" jsonb,
	"components" jsonb NOT NULL,
	"replaced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"replaced_by_id" uuid,
	CONSTRAINT "asset_inventories_asset_id_version_pk" PRIMARY KEY("asset_id","version")
);
--> statement-breakpoint
CREATE TABLE "assets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"environment" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"firewall_id" uuid,
	"inventory_version" integer DEFAULT 1 NOT NULL,
	"inventory_source" text DEFAULT 'manual' NOT NULL,
	"sbom" jsonb,
	"last_assessed_at" timestamp with time zone,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "assets_kind_check" CHECK ("assets"."kind" in ('application', 'host'))
);
--> statement-breakpoint
CREATE TABLE "findings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"asset_id" uuid NOT NULL,
	"component_key" text NOT NULL,
	"purl" text,
	"ecosystem" text NOT NULL,
	"package_name" text NOT NULL,
	"version" text NOT NULL,
	"vuln_id" text NOT NULL,
	"aliases" text[] DEFAULT '{}'::text[] NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"severity" text NOT NULL,
	"score" real,
	"fixed_in" text,
	"status" text DEFAULT 'open' NOT NULL,
	"justification" text,
	"reason" text,
	"until" timestamp with time zone,
	"first_seen" timestamp with time zone NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	"fixed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "findings_status_check" CHECK ("findings"."status" in ('open', 'not_affected', 'accepted', 'mitigated', 'fixed'))
);
--> statement-breakpoint
CREATE TABLE "virtual_patches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"finding_id" uuid NOT NULL,
	"firewall_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"rule_id" integer,
	"group" text,
	"description" text NOT NULL,
	"version" integer NOT NULL,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone,
	"removed_in_version" integer
);
--> statement-breakpoint
CREATE TABLE "vuln_affected" (
	"space_id" uuid NOT NULL,
	"ref_id" text NOT NULL,
	"seq" integer NOT NULL,
	"ecosystem" text NOT NULL,
	"package_key" text NOT NULL,
	"package_name" text NOT NULL,
	"ranges" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"versions" text[] DEFAULT '{}'::text[] NOT NULL,
	CONSTRAINT "vuln_affected_space_id_ref_id_seq_pk" PRIMARY KEY("space_id","ref_id","seq")
);
--> statement-breakpoint
CREATE TABLE "vuln_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"job_id" bigint,
	"status" text DEFAULT 'queued' NOT NULL,
	"file_name" text,
	"content_type" text NOT NULL,
	"body" "bytea",
	"bytes" bigint DEFAULT 0 NOT NULL,
	"files_total" integer DEFAULT 0 NOT NULL,
	"files_read" integer DEFAULT 0 NOT NULL,
	"imported" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"withdrawn" integer DEFAULT 0 NOT NULL,
	"refused" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"refused_count" integer DEFAULT 0 NOT NULL,
	"error" text,
	"started_by_id" uuid,
	"started_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "vuln_refs" (
	"space_id" uuid NOT NULL,
	"id" text NOT NULL,
	"aliases" text[] DEFAULT '{}'::text[] NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"modified" timestamp with time zone NOT NULL,
	"published" timestamp with time zone,
	"withdrawn" timestamp with time zone,
	"severity" text DEFAULT 'unknown' NOT NULL,
	"score" real,
	"ecosystems" text[] DEFAULT '{}'::text[] NOT NULL,
	"packages" text[] DEFAULT '{}'::text[] NOT NULL,
	"search_text" text DEFAULT '' NOT NULL,
	"record" jsonb NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vuln_refs_space_id_id_pk" PRIMARY KEY("space_id","id")
);
--> statement-breakpoint
ALTER TABLE "assessments" ADD CONSTRAINT "assessments_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "assessments" ADD CONSTRAINT "assessments_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "assessments" ADD CONSTRAINT "assessments_started_by_id_users_id_fk" FOREIGN KEY ("started_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "asset_components" ADD CONSTRAINT "asset_components_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "asset_inventories" ADD CONSTRAINT "asset_inventories_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "asset_inventories" ADD CONSTRAINT "asset_inventories_replaced_by_id_users_id_fk" FOREIGN KEY ("replaced_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_firewall_id_firewalls_id_fk" FOREIGN KEY ("firewall_id") REFERENCES "public"."firewalls"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "findings" ADD CONSTRAINT "findings_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "findings" ADD CONSTRAINT "findings_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "virtual_patches" ADD CONSTRAINT "virtual_patches_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "virtual_patches" ADD CONSTRAINT "virtual_patches_finding_id_findings_id_fk" FOREIGN KEY ("finding_id") REFERENCES "public"."findings"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "virtual_patches" ADD CONSTRAINT "virtual_patches_firewall_id_firewalls_id_fk" FOREIGN KEY ("firewall_id") REFERENCES "public"."firewalls"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "virtual_patches" ADD CONSTRAINT "virtual_patches_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "vuln_affected" ADD CONSTRAINT "vuln_affected_space_id_ref_id_vuln_refs_space_id_id_fk" FOREIGN KEY ("space_id","ref_id") REFERENCES "public"."vuln_refs"("space_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "vuln_imports" ADD CONSTRAINT "vuln_imports_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "vuln_imports" ADD CONSTRAINT "vuln_imports_started_by_id_users_id_fk" FOREIGN KEY ("started_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "vuln_refs" ADD CONSTRAINT "vuln_refs_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "assessments_space_at_idx" ON "assessments" USING btree ("space_id","at");
--> statement-breakpoint
CREATE UNIQUE INDEX "assets_space_name_idx" ON "assets" USING btree ("space_id",lower("name"));
--> statement-breakpoint
CREATE UNIQUE INDEX "findings_identity_idx" ON "findings" USING btree ("asset_id","component_key","vuln_id");
--> statement-breakpoint
CREATE INDEX "findings_space_status_idx" ON "findings" USING btree ("space_id","status","severity");
--> statement-breakpoint
CREATE INDEX "findings_until_idx" ON "findings" USING btree ("until") WHERE "findings"."status" = 'accepted' and "findings"."until" is not null;
--> statement-breakpoint
CREATE INDEX "virtual_patches_firewall_idx" ON "virtual_patches" USING btree ("firewall_id") WHERE "virtual_patches"."removed_at" is null;
--> statement-breakpoint
CREATE INDEX "virtual_patches_finding_idx" ON "virtual_patches" USING btree ("finding_id");
--> statement-breakpoint
CREATE INDEX "vuln_affected_package_idx" ON "vuln_affected" USING btree ("space_id","package_key");
--> statement-breakpoint
CREATE INDEX "vuln_imports_space_idx" ON "vuln_imports" USING btree ("space_id","created_at" DESC NULLS LAST);
--> statement-breakpoint
CREATE INDEX "vuln_refs_modified_idx" ON "vuln_refs" USING btree ("space_id","modified" DESC NULLS LAST,"id");
--> statement-breakpoint
CREATE INDEX "vuln_refs_packages_idx" ON "vuln_refs" USING gin ("packages");
--> statement-breakpoint
CREATE INDEX "vuln_refs_aliases_idx" ON "vuln_refs" USING gin ("aliases");
