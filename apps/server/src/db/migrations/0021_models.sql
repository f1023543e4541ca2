CREATE TABLE "model_allowances" (
	"owner_id" bigint PRIMARY KEY NOT NULL,
	"granted_tokens" bigint NOT NULL,
	"used_tokens" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "model_allowances_used" CHECK ("model_allowances"."used_tokens" between 0 and "model_allowances"."granted_tokens")
);
--> statement-breakpoint
CREATE TABLE "model_rate_windows" (
	"key" varchar(48) NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"tokens" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "model_rate_windows_key_window_start_pk" PRIMARY KEY("key","window_start")
);
--> statement-breakpoint
CREATE TABLE "model_usage_orders" (
	"wallet_id" bigint PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "model_usages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"owner_id" bigint NOT NULL,
	"creator_id" bigint NOT NULL,
	"wallet_id" bigint NOT NULL,
	"api_token_id" bigint,
	"model_id" varchar(64) NOT NULL,
	"input_tokens" integer NOT NULL,
	"output_tokens" integer NOT NULL,
	"free_tokens" integer DEFAULT 0 NOT NULL,
	"charged_fen" bigint DEFAULT 0 NOT NULL,
	"outcome" varchar(12) NOT NULL,
	"stream" boolean NOT NULL,
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "models" (
	"id" varchar(64) PRIMARY KEY NOT NULL,
	"name" varchar(64) NOT NULL,
	"provider" varchar(64) NOT NULL,
	"type" varchar(8) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"context_length" integer NOT NULL,
	"param_size" varchar(16) DEFAULT '' NOT NULL,
	"license" varchar(64) DEFAULT '' NOT NULL,
	"input_price_fen" integer NOT NULL,
	"output_price_fen" integer NOT NULL,
	"engine" varchar(16) NOT NULL,
	"engine_model" varchar(255) NOT NULL,
	"upstream_url" text,
	"upstream_key_enc" text,
	"is_test" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 100 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "models_type" CHECK ("models"."type" in ('text', 'visual')),
	CONSTRAINT "models_engine" CHECK ("models"."engine" in ('local', 'openai')),
	CONSTRAINT "models_prices" CHECK ("models"."input_price_fen" >= 0 and "models"."output_price_fen" >= 0)
);
--> statement-breakpoint
ALTER TABLE "model_allowances" ADD CONSTRAINT "model_allowances_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_usage_orders" ADD CONSTRAINT "model_usage_orders_wallet_id_users_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_usages" ADD CONSTRAINT "model_usages_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_usages" ADD CONSTRAINT "model_usages_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "model_rate_windows_start_idx" ON "model_rate_windows" USING btree ("window_start");--> statement-breakpoint
CREATE INDEX "model_usages_owner_idx" ON "model_usages" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "model_usages_model_idx" ON "model_usages" USING btree ("model_id","created_at");--> statement-breakpoint
CREATE INDEX "models_listed_idx" ON "models" USING btree ("type","sort_order","id") WHERE "models"."enabled";