CREATE TABLE "ssh_keys" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"owner_id" bigint NOT NULL,
	"creator_id" bigint NOT NULL,
	"name" varchar(64) NOT NULL,
	"public_key" text NOT NULL,
	"fingerprint" varchar(64) NOT NULL,
	"key_type" varchar(32) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stock_subscriptions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"owner_id" bigint NOT NULL,
	"creator_id" bigint NOT NULL,
	"zone_id" varchar(32) NOT NULL,
	"gpu_model_id" varchar(32) NOT NULL,
	"gpu_num" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"notified_at" timestamp with time zone,
	CONSTRAINT "stock_subscriptions_gpu" CHECK ("stock_subscriptions"."gpu_num" >= 1)
);
--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "auto_renew" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "package_paid_fen" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "package_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "scheduled_power_off_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sim_machines" ADD COLUMN "authorized_keys" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "ssh_keys" ADD CONSTRAINT "ssh_keys_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ssh_keys" ADD CONSTRAINT "ssh_keys_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_subscriptions" ADD CONSTRAINT "stock_subscriptions_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_subscriptions" ADD CONSTRAINT "stock_subscriptions_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_subscriptions" ADD CONSTRAINT "stock_subscriptions_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_subscriptions" ADD CONSTRAINT "stock_subscriptions_gpu_model_id_gpu_models_id_fk" FOREIGN KEY ("gpu_model_id") REFERENCES "public"."gpu_models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ssh_keys_creator_name_key" ON "ssh_keys" USING btree ("creator_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "ssh_keys_creator_fingerprint_key" ON "ssh_keys" USING btree ("creator_id","fingerprint");--> statement-breakpoint
CREATE UNIQUE INDEX "stock_subscriptions_waiting_key" ON "stock_subscriptions" USING btree ("creator_id","zone_id","gpu_model_id","gpu_num") WHERE "stock_subscriptions"."notified_at" is null;--> statement-breakpoint
CREATE INDEX "stock_subscriptions_waiting_idx" ON "stock_subscriptions" USING btree ("zone_id","gpu_model_id") WHERE "stock_subscriptions"."notified_at" is null;--> statement-breakpoint
CREATE INDEX "stock_subscriptions_owner_idx" ON "stock_subscriptions" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "instances_expiry_idx" ON "instances" USING btree ("expires_at") WHERE "instances"."expires_at" is not null and "instances"."released_at" is null;--> statement-breakpoint
CREATE INDEX "instances_scheduled_off_idx" ON "instances" USING btree ("scheduled_power_off_at") WHERE "instances"."scheduled_power_off_at" is not null;