CREATE TABLE "attempt_windows" (
	"scope" varchar(32) NOT NULL,
	"subject" varchar(128) NOT NULL,
	"hits" timestamp with time zone[] NOT NULL,
	"last_allowed" boolean NOT NULL,
	CONSTRAINT "attempt_windows_scope_subject_pk" PRIMARY KEY("scope","subject")
);
--> statement-breakpoint
DROP TABLE "login_failures" CASCADE;--> statement-breakpoint
DROP TABLE "login_locks" CASCADE;--> statement-breakpoint
DROP TABLE "redeem_failures" CASCADE;--> statement-breakpoint
ALTER TABLE "sms_codes" ADD COLUMN "checks" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "fingerprint" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "sms_codes" DROP COLUMN "wrong_attempts";