CREATE TABLE "oauth_identities" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" varchar(16) NOT NULL,
	"subject" varchar(128) NOT NULL,
	"user_id" bigint NOT NULL,
	"nickname" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_states" (
	"key_hash" varchar(64) PRIMARY KEY NOT NULL,
	"purpose" varchar(16) NOT NULL,
	"provider" varchar(16) NOT NULL,
	"user_id" bigint,
	"subject" varchar(128),
	"nickname" varchar(64),
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "private_uploads" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"owner_id" bigint NOT NULL,
	"creator_id" bigint NOT NULL,
	"purpose" varchar(16) NOT NULL,
	"file_name" varchar(128) NOT NULL,
	"content_type" varchar(64) NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" varchar(64) NOT NULL,
	"storage_key" varchar(128) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reminders" (
	"user_id" bigint NOT NULL,
	"remind_type" varchar(24) NOT NULL,
	"threshold_fen" bigint,
	"days_before" integer,
	"sms" boolean DEFAULT true NOT NULL,
	"fired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reminders_user_id_remind_type_pk" PRIMARY KEY("user_id","remind_type"),
	CONSTRAINT "reminders_threshold" CHECK ("reminders"."threshold_fen" is null or "reminders"."threshold_fen" >= 0),
	CONSTRAINT "reminders_days" CHECK ("reminders"."days_before" is null or "reminders"."days_before" between 1 and 30)
);
--> statement-breakpoint
CREATE TABLE "verifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" bigint NOT NULL,
	"kind" varchar(16) NOT NULL,
	"status" varchar(16) DEFAULT 'PENDING' NOT NULL,
	"subject_key" varchar(128) NOT NULL,
	"details" jsonb NOT NULL,
	"upload_id" bigint,
	"reason" text,
	"reviewer_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "verifications_kind" CHECK ("verifications"."kind" in ('PERSON', 'ENTERPRISE', 'STUDENT')),
	CONSTRAINT "verifications_status" CHECK ("verifications"."status" in ('PENDING', 'APPROVED', 'REJECTED'))
);
--> statement-breakpoint
ALTER TABLE "oauth_identities" ADD CONSTRAINT "oauth_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD CONSTRAINT "oauth_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_uploads" ADD CONSTRAINT "private_uploads_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_uploads" ADD CONSTRAINT "private_uploads_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminders" ADD CONSTRAINT "reminders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_upload_id_private_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."private_uploads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_identities_subject_key" ON "oauth_identities" USING btree ("provider","subject");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_identities_user_key" ON "oauth_identities" USING btree ("provider","user_id");--> statement-breakpoint
CREATE INDEX "oauth_states_expires_idx" ON "oauth_states" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "private_uploads_storage_key" ON "private_uploads" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "private_uploads_owner_idx" ON "private_uploads" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "reminders_type_idx" ON "reminders" USING btree ("remind_type");--> statement-breakpoint
CREATE UNIQUE INDEX "verifications_live_per_kind" ON "verifications" USING btree ("account_id","kind") WHERE "verifications"."status" in ('PENDING', 'APPROVED');--> statement-breakpoint
CREATE UNIQUE INDEX "verifications_live_subject" ON "verifications" USING btree ("kind","subject_key") WHERE "verifications"."status" in ('PENDING', 'APPROVED');--> statement-breakpoint
CREATE INDEX "verifications_account_idx" ON "verifications" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "verifications_status_idx" ON "verifications" USING btree ("status","created_at");