CREATE TABLE "file_storages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"owner_id" bigint NOT NULL,
	"creator_id" bigint NOT NULL,
	"zone_id" varchar(32) NOT NULL,
	"quota_gb" integer DEFAULT 200 NOT NULL,
	"used_bytes" bigint DEFAULT 0 NOT NULL,
	"measured_at" timestamp with time zone,
	"billed_until" timestamp with time zone NOT NULL,
	"charged_fen" bigint DEFAULT 0 NOT NULL,
	"order_id" bigint,
	"arrears_since" timestamp with time zone,
	"writes_blocked_at" timestamp with time zone,
	"deletion_reminders" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "file_storages_quota" CHECK ("file_storages"."quota_gb" between 1 and 2048)
);
--> statement-breakpoint
ALTER TABLE "zones" ADD COLUMN "storage_price_fen_per_gb_day" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "docker_machines" ADD COLUMN "file_storage" varchar(80);--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "file_storage_mounted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sim_machines" ADD COLUMN "file_storage" varchar(80);--> statement-breakpoint
ALTER TABLE "file_storages" ADD CONSTRAINT "file_storages_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_storages" ADD CONSTRAINT "file_storages_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_storages" ADD CONSTRAINT "file_storages_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "file_storages_owner_zone_key" ON "file_storages" USING btree ("owner_id","zone_id") WHERE "file_storages"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "file_storages_live_idx" ON "file_storages" USING btree ("billed_until") WHERE "file_storages"."deleted_at" is null;