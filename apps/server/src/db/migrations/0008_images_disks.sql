CREATE TABLE "image_shares" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"image_row_id" bigint NOT NULL,
	"recipient_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "private_images" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"image_id" varchar(32) NOT NULL,
	"uid" uuid NOT NULL,
	"owner_id" bigint NOT NULL,
	"creator_id" bigint NOT NULL,
	"name" varchar(64) NOT NULL,
	"source_instance_row_id" bigint,
	"base_image_id" varchar(96) NOT NULL,
	"cuda" varchar(16) NOT NULL,
	"size_gb" real DEFAULT 0 NOT NULL,
	"status" varchar(16) NOT NULL,
	"status_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sim_images" (
	"uid" uuid PRIMARY KEY NOT NULL,
	"instance_id" varchar(32) NOT NULL,
	"state" varchar(16) NOT NULL,
	"size_gb" real NOT NULL,
	"ready_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "operation_arg" varchar(96);--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "disk_rate_fen_per_day" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "disk_meter_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "disk_charged_fen" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "disk_order_id" bigint;--> statement-breakpoint
ALTER TABLE "sim_machines" ADD COLUMN "data_disk_used_gb" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "image_shares" ADD CONSTRAINT "image_shares_image_row_id_private_images_id_fk" FOREIGN KEY ("image_row_id") REFERENCES "public"."private_images"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "image_shares" ADD CONSTRAINT "image_shares_recipient_id_users_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_images" ADD CONSTRAINT "private_images_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_images" ADD CONSTRAINT "private_images_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "image_shares_image_recipient_key" ON "image_shares" USING btree ("image_row_id","recipient_id");--> statement-breakpoint
CREATE INDEX "image_shares_recipient_idx" ON "image_shares" USING btree ("recipient_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "private_images_image_id_key" ON "private_images" USING btree ("image_id");--> statement-breakpoint
CREATE UNIQUE INDEX "private_images_uid_key" ON "private_images" USING btree ("uid");--> statement-breakpoint
CREATE UNIQUE INDEX "private_images_owner_name_key" ON "private_images" USING btree ("owner_id","name") WHERE "private_images"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "private_images_owner_idx" ON "private_images" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "private_images_saving_idx" ON "private_images" USING btree ("created_at") WHERE "private_images"."status" = 'saving';--> statement-breakpoint
CREATE INDEX "instances_disk_meter_idx" ON "instances" USING btree ("disk_meter_started_at") WHERE "instances"."disk_meter_started_at" is not null;