CREATE TABLE "dataset_favorites" (
	"user_id" bigint NOT NULL,
	"dataset_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dataset_favorites_user_id_dataset_id_pk" PRIMARY KEY("user_id","dataset_id")
);
--> statement-breakpoint
CREATE TABLE "datasets" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" varchar(8) NOT NULL,
	"owner_id" bigint,
	"creator_id" bigint,
	"name" varchar(64) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"license" varchar(32),
	"zone_id" varchar(32),
	"source_path" text,
	"snapshot" varchar(128) NOT NULL,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"file_count" integer DEFAULT 0 NOT NULL,
	"status" varchar(16) NOT NULL,
	"reject_reason" text,
	"reviewer_id" bigint,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "datasets_kind" CHECK ("datasets"."kind" in ('PUBLIC', 'SHARED')),
	CONSTRAINT "datasets_status" CHECK ("datasets"."status" in ('IN_REVIEW', 'PASS', 'REJECTED'))
);
--> statement-breakpoint
ALTER TABLE "docker_machines" ADD COLUMN "datasets" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "dataset_ids" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "dataset_sources" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sim_machines" ADD COLUMN "datasets" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "dataset_favorites" ADD CONSTRAINT "dataset_favorites_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dataset_favorites" ADD CONSTRAINT "dataset_favorites_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."datasets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "datasets" ADD CONSTRAINT "datasets_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "datasets" ADD CONSTRAINT "datasets_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "datasets" ADD CONSTRAINT "datasets_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "datasets" ADD CONSTRAINT "datasets_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dataset_favorites_dataset_idx" ON "dataset_favorites" USING btree ("dataset_id");--> statement-breakpoint
CREATE UNIQUE INDEX "datasets_owner_name_key" ON "datasets" USING btree ("owner_id","name") WHERE "datasets"."deleted_at" is null and "datasets"."kind" = 'SHARED';--> statement-breakpoint
CREATE UNIQUE INDEX "datasets_public_name_key" ON "datasets" USING btree ("name") WHERE "datasets"."deleted_at" is null and "datasets"."kind" = 'PUBLIC';--> statement-breakpoint
CREATE INDEX "datasets_listed_idx" ON "datasets" USING btree ("kind","status","id") WHERE "datasets"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "datasets_owner_idx" ON "datasets" USING btree ("owner_id","id") WHERE "datasets"."deleted_at" is null;