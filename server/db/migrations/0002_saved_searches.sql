CREATE TABLE "saved_searches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"space_id" uuid NOT NULL,
	"name" text NOT NULL,
	"query" text DEFAULT '' NOT NULL,
	"range" text,
	"range_from" timestamp with time zone,
	"range_to" timestamp with time zone,
	"created_by_id" uuid,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_searches_range_check" CHECK (("saved_searches"."range" is not null and "saved_searches"."range_from" is null and "saved_searches"."range_to" is null) or ("saved_searches"."range" is null and "saved_searches"."range_from" is not null and "saved_searches"."range_to" is not null and "saved_searches"."range_from" < "saved_searches"."range_to"))
);
--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_space_id_spaces_id_fk" FOREIGN KEY ("space_id") REFERENCES "public"."spaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "saved_searches_space_name_idx" ON "saved_searches" USING btree ("space_id",lower("name"));--> statement-breakpoint
CREATE INDEX "saved_searches_space_created_idx" ON "saved_searches" USING btree ("space_id","created_at" DESC NULLS LAST);