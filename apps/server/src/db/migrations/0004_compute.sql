CREATE TABLE "hosts" (
	"id" varchar(32) PRIMARY KEY NOT NULL,
	"name" varchar(64) NOT NULL,
	"zone_id" varchar(32) NOT NULL,
	"gpu_model_id" varchar(32) NOT NULL,
	"cpu_model_id" varchar(32) NOT NULL,
	"gpu_total" integer NOT NULL,
	"gpu_allocated" integer DEFAULT 0 NOT NULL,
	"cpu_per_gpu" integer NOT NULL,
	"memory_gb_per_gpu" integer NOT NULL,
	"data_disk_max_gb" integer NOT NULL,
	"data_disk_total_gb" integer NOT NULL,
	"data_disk_allocated_gb" integer DEFAULT 0 NOT NULL,
	"cuda_version" varchar(16) NOT NULL,
	"driver_version" varchar(32) NOT NULL,
	"usage_price_fen" integer,
	"day_price_fen" integer,
	"week_price_fen" integer,
	"month_price_fen" integer,
	"enabled" boolean DEFAULT true NOT NULL,
	"sim_fault" varchar(16),
	"sim_fault_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hosts_gpu_allocation" CHECK ("hosts"."gpu_allocated" >= 0 and "hosts"."gpu_allocated" <= "hosts"."gpu_total"),
	CONSTRAINT "hosts_disk_allocation" CHECK ("hosts"."data_disk_allocated_gb" >= 0 and "hosts"."data_disk_allocated_gb" <= "hosts"."data_disk_total_gb"),
	CONSTRAINT "hosts_sizes" CHECK ("hosts"."gpu_total" >= 0 and "hosts"."cpu_per_gpu" > 0 and "hosts"."memory_gb_per_gpu" > 0 and "hosts"."data_disk_max_gb" > 0)
);
--> statement-breakpoint
CREATE TABLE "instance_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"instance_row_id" bigint NOT NULL,
	"type" varchar(32) NOT NULL,
	"from_status" varchar(24),
	"to_status" varchar(24),
	"detail" text,
	"actor_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "instances" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"instance_id" varchar(32) NOT NULL,
	"uid" uuid NOT NULL,
	"owner_id" bigint NOT NULL,
	"creator_id" bigint NOT NULL,
	"wallet_id" bigint NOT NULL,
	"name" varchar(64) NOT NULL,
	"host_id" varchar(32) NOT NULL,
	"zone_id" varchar(32) NOT NULL,
	"gpu_model_id" varchar(32) NOT NULL,
	"gpu_num" integer NOT NULL,
	"gpu_held" integer DEFAULT 0 NOT NULL,
	"gpu_mode" varchar(8) DEFAULT 'gpu' NOT NULL,
	"image_id" varchar(96) NOT NULL,
	"charging_rule_id" smallint NOT NULL,
	"data_disk_gb" integer NOT NULL,
	"status" varchar(24) NOT NULL,
	"status_reason" text,
	"operation" varchar(16),
	"operation_mode" varchar(8),
	"operation_started_at" timestamp with time zone,
	"operation_attempts" integer DEFAULT 0 NOT NULL,
	"operation_lease_until" timestamp with time zone,
	"ssh_host" varchar(128),
	"ssh_port" integer,
	"root_password_enc" text NOT NULL,
	"run_started_at" timestamp with time zone,
	"run_rate_fen" integer DEFAULT 0 NOT NULL,
	"run_charged_fen" bigint DEFAULT 0 NOT NULL,
	"usage_order_id" bigint,
	"powered_off_at" timestamp with time zone,
	"released_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "instances_gpu" CHECK ("instances"."gpu_num" >= 1 and "instances"."gpu_held" >= 0 and "instances"."gpu_held" <= "instances"."gpu_num"),
	CONSTRAINT "instances_run" CHECK ("instances"."run_charged_fen" >= 0 and "instances"."run_rate_fen" >= 0)
);
--> statement-breakpoint
CREATE TABLE "job_leases" (
	"name" varchar(64) PRIMARY KEY NOT NULL,
	"holder" varchar(64) NOT NULL,
	"lease_until" timestamp with time zone NOT NULL,
	"last_run_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"owner_id" bigint NOT NULL,
	"kind" varchar(32) NOT NULL,
	"title" varchar(128) NOT NULL,
	"body" text NOT NULL,
	"instance_row_id" bigint,
	"dedupe_key" varchar(128) NOT NULL,
	"sms_status" varchar(16),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sim_machines" (
	"instance_id" varchar(32) PRIMARY KEY NOT NULL,
	"host_id" varchar(32) NOT NULL,
	"state" varchar(16) NOT NULL,
	"gpu_num" integer NOT NULL,
	"image_id" varchar(96) NOT NULL,
	"data_disk_gb" integer NOT NULL,
	"ready_at" timestamp with time zone NOT NULL,
	"running_since" timestamp with time zone,
	"ssh_port" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hosts" ADD CONSTRAINT "hosts_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hosts" ADD CONSTRAINT "hosts_gpu_model_id_gpu_models_id_fk" FOREIGN KEY ("gpu_model_id") REFERENCES "public"."gpu_models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hosts" ADD CONSTRAINT "hosts_cpu_model_id_cpu_models_id_fk" FOREIGN KEY ("cpu_model_id") REFERENCES "public"."cpu_models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instance_events" ADD CONSTRAINT "instance_events_instance_row_id_instances_id_fk" FOREIGN KEY ("instance_row_id") REFERENCES "public"."instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_wallet_id_users_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_host_id_hosts_id_fk" FOREIGN KEY ("host_id") REFERENCES "public"."hosts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hosts_market_idx" ON "hosts" USING btree ("zone_id","gpu_model_id") WHERE "hosts"."enabled";--> statement-breakpoint
CREATE INDEX "hosts_gpu_model_idx" ON "hosts" USING btree ("gpu_model_id") WHERE "hosts"."enabled";--> statement-breakpoint
CREATE INDEX "instance_events_instance_idx" ON "instance_events" USING btree ("instance_row_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "instances_instance_id_key" ON "instances" USING btree ("instance_id");--> statement-breakpoint
CREATE UNIQUE INDEX "instances_uid_key" ON "instances" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "instances_owner_created_idx" ON "instances" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "instances_host_idx" ON "instances" USING btree ("host_id");--> statement-breakpoint
CREATE INDEX "instances_operation_idx" ON "instances" USING btree ("operation_started_at") WHERE "instances"."operation" is not null;--> statement-breakpoint
CREATE INDEX "instances_metered_idx" ON "instances" USING btree ("wallet_id") WHERE "instances"."run_started_at" is not null;--> statement-breakpoint
CREATE INDEX "instances_powered_off_idx" ON "instances" USING btree ("powered_off_at") WHERE "instances"."status" = 'PoweredOff' and "instances"."released_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_dedupe_key" ON "notifications" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "notifications_owner_idx" ON "notifications" USING btree ("owner_id","created_at");