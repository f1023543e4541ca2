CREATE TABLE "elastic_deployments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"uid" uuid NOT NULL,
	"owner_id" bigint NOT NULL,
	"creator_id" bigint NOT NULL,
	"wallet_id" bigint NOT NULL,
	"name" varchar(64) NOT NULL,
	"type" varchar(16) NOT NULL,
	"status" varchar(16) NOT NULL,
	"status_reason" text,
	"locked" boolean DEFAULT false NOT NULL,
	"image_id" varchar(96) NOT NULL,
	"gpu_num" integer NOT NULL,
	"replica_num" integer NOT NULL,
	"parallelism_num" integer NOT NULL,
	"zone_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"gpu_model_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"cuda_min" varchar(16),
	"price_max_fen" integer,
	"cmd" text,
	"env" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"ports" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"template_version" integer DEFAULT 1 NOT NULL,
	"succeeded_num" integer DEFAULT 0 NOT NULL,
	"failed_num" integer DEFAULT 0 NOT NULL,
	"placed_num" integer DEFAULT 0 NOT NULL,
	"waiting_reason" text,
	"waiting_num" integer DEFAULT 0 NOT NULL,
	"order_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "elastic_deployments_sizes" CHECK ("elastic_deployments"."gpu_num" >= 1 and "elastic_deployments"."replica_num" >= 0 and "elastic_deployments"."parallelism_num" >= 1)
);
--> statement-breakpoint
CREATE TABLE "elastic_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"deployment_row_id" bigint NOT NULL,
	"type" varchar(32) NOT NULL,
	"detail" text NOT NULL,
	"actor_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "time_packs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"owner_id" bigint NOT NULL,
	"creator_id" bigint NOT NULL,
	"wallet_id" bigint NOT NULL,
	"gpu_model_id" varchar(32) NOT NULL,
	"hours" integer NOT NULL,
	"valid_days" smallint NOT NULL,
	"total_seconds" bigint NOT NULL,
	"balance_seconds" bigint NOT NULL,
	"status" varchar(16) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_fen" bigint NOT NULL,
	"refunded_fen" bigint DEFAULT 0 NOT NULL,
	"order_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "time_packs_balance" CHECK ("time_packs"."balance_seconds" >= 0 and "time_packs"."balance_seconds" <= "time_packs"."total_seconds" and "time_packs"."paid_fen" >= 0 and "time_packs"."refunded_fen" >= 0)
);
--> statement-breakpoint
ALTER TABLE "docker_machines" ADD COLUMN "command" text;--> statement-breakpoint
ALTER TABLE "docker_machines" ADD COLUMN "env" jsonb;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "deployment_row_id" bigint;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "template_version" integer;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "command" text;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "env" jsonb;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "exit_code" integer;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "ended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "end_reason" text;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "total_charged_fen" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "run_pack_seconds" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "run_pack_checked_seconds" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "first_run_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "ran_seconds" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "total_pack_seconds" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sim_machines" ADD COLUMN "command" text;--> statement-breakpoint
ALTER TABLE "sim_machines" ADD COLUMN "exit_code" integer;--> statement-breakpoint
ALTER TABLE "elastic_deployments" ADD CONSTRAINT "elastic_deployments_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "elastic_deployments" ADD CONSTRAINT "elastic_deployments_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "elastic_deployments" ADD CONSTRAINT "elastic_deployments_wallet_id_users_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "elastic_events" ADD CONSTRAINT "elastic_events_deployment_row_id_elastic_deployments_id_fk" FOREIGN KEY ("deployment_row_id") REFERENCES "public"."elastic_deployments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_packs" ADD CONSTRAINT "time_packs_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_packs" ADD CONSTRAINT "time_packs_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_packs" ADD CONSTRAINT "time_packs_wallet_id_users_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_packs" ADD CONSTRAINT "time_packs_gpu_model_id_gpu_models_id_fk" FOREIGN KEY ("gpu_model_id") REFERENCES "public"."gpu_models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "elastic_deployments_uid_key" ON "elastic_deployments" USING btree ("uid");--> statement-breakpoint
CREATE UNIQUE INDEX "elastic_deployments_owner_name_key" ON "elastic_deployments" USING btree ("owner_id","name") WHERE "elastic_deployments"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "elastic_deployments_owner_idx" ON "elastic_deployments" USING btree ("owner_id","created_at") WHERE "elastic_deployments"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "elastic_deployments_active_idx" ON "elastic_deployments" USING btree ("id") WHERE "elastic_deployments"."status" in ('RUNNING', 'STOPPING');--> statement-breakpoint
CREATE INDEX "elastic_deployments_wallet_active_idx" ON "elastic_deployments" USING btree ("wallet_id") WHERE "elastic_deployments"."status" = 'RUNNING';--> statement-breakpoint
CREATE INDEX "elastic_events_deployment_idx" ON "elastic_events" USING btree ("deployment_row_id","created_at");--> statement-breakpoint
CREATE INDEX "time_packs_owner_idx" ON "time_packs" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "time_packs_drawable_idx" ON "time_packs" USING btree ("wallet_id","gpu_model_id","expires_at") WHERE "time_packs"."status" = 'IN_USE' and "time_packs"."balance_seconds" > 0;--> statement-breakpoint
CREATE INDEX "time_packs_expiry_idx" ON "time_packs" USING btree ("expires_at") WHERE "time_packs"."status" = 'IN_USE';--> statement-breakpoint
CREATE INDEX "instances_deployment_idx" ON "instances" USING btree ("deployment_row_id","created_at") WHERE "instances"."deployment_row_id" is not null;--> statement-breakpoint
CREATE INDEX "instances_deployment_live_idx" ON "instances" USING btree ("deployment_row_id") WHERE "instances"."deployment_row_id" is not null and "instances"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "instances_elastic_running_idx" ON "instances" USING btree ("wallet_id","gpu_model_id") WHERE "instances"."deployment_row_id" is not null and "instances"."run_started_at" is not null;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_run_pack" CHECK ("instances"."run_pack_seconds" >= 0 and "instances"."run_pack_seconds" <= "instances"."run_pack_checked_seconds");