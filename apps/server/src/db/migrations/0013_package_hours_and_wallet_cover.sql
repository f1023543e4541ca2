ALTER TABLE "instances" ADD COLUMN "package_priced_hours" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "package_priced_fen" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "package_next_hour_most_gpus" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "instances_wallet_live_idx" ON "instances" USING btree ("wallet_id") WHERE "instances"."released_at" is null;