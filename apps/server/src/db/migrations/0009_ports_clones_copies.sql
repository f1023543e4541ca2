CREATE TABLE "copy_tasks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"uid" uuid NOT NULL,
	"owner_id" bigint NOT NULL,
	"creator_id" bigint NOT NULL,
	"from_instance_row_id" bigint NOT NULL,
	"to_instance_row_id" bigint NOT NULL,
	"path" varchar(512) NOT NULL,
	"status" varchar(16) NOT NULL,
	"status_reason" text,
	"total_gb" real DEFAULT 0 NOT NULL,
	"copied_gb" real DEFAULT 0 NOT NULL,
	"progress" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "copy_tasks_progress" CHECK ("copy_tasks"."progress" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "instance_ports" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"instance_row_id" bigint NOT NULL,
	"zone_id" varchar(32) NOT NULL,
	"port" integer NOT NULL,
	"protocol" smallint NOT NULL,
	"public_port" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "instance_ports_port" CHECK ("instance_ports"."port" between 1 and 65535 and "instance_ports"."protocol" in (1, 2))
);
--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "clone_source_row_id" bigint;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "clone_copy_data" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "clone_releases_source" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "keep_when_off" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "retained_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "retention_order_id" bigint;--> statement-breakpoint
ALTER TABLE "copy_tasks" ADD CONSTRAINT "copy_tasks_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copy_tasks" ADD CONSTRAINT "copy_tasks_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copy_tasks" ADD CONSTRAINT "copy_tasks_from_instance_row_id_instances_id_fk" FOREIGN KEY ("from_instance_row_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copy_tasks" ADD CONSTRAINT "copy_tasks_to_instance_row_id_instances_id_fk" FOREIGN KEY ("to_instance_row_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instance_ports" ADD CONSTRAINT "instance_ports_instance_row_id_instances_id_fk" FOREIGN KEY ("instance_row_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "copy_tasks_uid_key" ON "copy_tasks" USING btree ("uid");--> statement-breakpoint
CREATE UNIQUE INDEX "copy_tasks_running_target_key" ON "copy_tasks" USING btree ("to_instance_row_id") WHERE "copy_tasks"."status" = 'running';--> statement-breakpoint
CREATE INDEX "copy_tasks_running_idx" ON "copy_tasks" USING btree ("created_at") WHERE "copy_tasks"."status" = 'running';--> statement-breakpoint
CREATE INDEX "copy_tasks_from_idx" ON "copy_tasks" USING btree ("from_instance_row_id","created_at");--> statement-breakpoint
CREATE INDEX "copy_tasks_to_idx" ON "copy_tasks" USING btree ("to_instance_row_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "instance_ports_instance_port_key" ON "instance_ports" USING btree ("instance_row_id","port");--> statement-breakpoint
CREATE UNIQUE INDEX "instance_ports_zone_public_key" ON "instance_ports" USING btree ("zone_id","public_port");