CREATE TABLE "human_check_uses" (
	"key" varchar(64) PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "human_check_uses_expires_idx" ON "human_check_uses" USING btree ("expires_at");