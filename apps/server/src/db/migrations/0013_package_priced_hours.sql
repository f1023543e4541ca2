ALTER TABLE "instances" ADD COLUMN "package_priced_hours" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "instances" ADD COLUMN "package_priced_fen" bigint DEFAULT 0 NOT NULL;