CREATE TABLE "audit_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"actor_id" bigint NOT NULL,
	"action" varchar(64) NOT NULL,
	"target_type" varchar(32) NOT NULL,
	"target_id" varchar(64) NOT NULL,
	"detail" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" bigint NOT NULL,
	"key" varchar(128) NOT NULL,
	"route" varchar(128) NOT NULL,
	"status_code" smallint NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "invoice_items" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"invoice_id" bigint NOT NULL,
	"owner_id" bigint NOT NULL,
	"recharge_id" varchar(32),
	"bill_month" varchar(7),
	"amount_fen" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_profiles" (
	"owner_id" bigint PRIMARY KEY NOT NULL,
	"title_type" varchar(16) NOT NULL,
	"title" varchar(100) NOT NULL,
	"tax_no" varchar(32),
	"bank_name" varchar(100),
	"bank_account" varchar(40),
	"address" varchar(200),
	"phone" varchar(32),
	"email" varchar(100) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"owner_id" bigint NOT NULL,
	"creator_id" bigint NOT NULL,
	"type" varchar(16) NOT NULL,
	"method" varchar(16) NOT NULL,
	"status" varchar(16) NOT NULL,
	"amount_fen" bigint NOT NULL,
	"profile" jsonb NOT NULL,
	"invoice_no" varchar(64),
	"pdf_path" text,
	"reject_reason" text,
	"remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "issue_batches" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" varchar(16) NOT NULL,
	"name" varchar(64) NOT NULL,
	"operator_id" bigint NOT NULL,
	"count" integer NOT NULL,
	"detail" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transaction_id" bigint NOT NULL,
	"wallet_id" bigint,
	"platform_account" varchar(32),
	"amount_fen" bigint NOT NULL,
	"balance_after_fen" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_one_side" CHECK (("ledger_entries"."wallet_id" is null) <> ("ledger_entries"."platform_account" is null)),
	CONSTRAINT "ledger_entries_nonzero" CHECK ("ledger_entries"."amount_fen" <> 0),
	CONSTRAINT "ledger_entries_platform_account" CHECK ("ledger_entries"."platform_account" is null or "ledger_entries"."platform_account" in ('revenue', 'payment_clearing', 'refunds', 'vouchers', 'gifts'))
);
--> statement-breakpoint
CREATE TABLE "ledger_transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"type" varchar(16) NOT NULL,
	"channel" varchar(16) NOT NULL,
	"description" text NOT NULL,
	"order_id" bigint,
	"recharge_id" varchar(32),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_no" varchar(32) NOT NULL,
	"owner_id" bigint NOT NULL,
	"creator_id" bigint NOT NULL,
	"wallet_id" bigint NOT NULL,
	"type" varchar(32) NOT NULL,
	"status" varchar(16) NOT NULL,
	"billing_type" varchar(16) NOT NULL,
	"title" varchar(200) NOT NULL,
	"items" jsonb NOT NULL,
	"original_amount_fen" bigint NOT NULL,
	"discount_fen" bigint DEFAULT 0 NOT NULL,
	"paid_fen" bigint DEFAULT 0 NOT NULL,
	"refunded_fen" bigint DEFAULT 0 NOT NULL,
	"metered_fen" bigint DEFAULT 0 NOT NULL,
	"voucher_id" bigint,
	"resource_type" varchar(32),
	"resource_id" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	CONSTRAINT "orders_amounts" CHECK ("orders"."original_amount_fen" >= 0 and "orders"."discount_fen" >= 0 and "orders"."paid_fen" >= 0 and "orders"."refunded_fen" >= 0 and "orders"."refunded_fen" <= "orders"."paid_fen")
);
--> statement-breakpoint
CREATE TABLE "recharges" (
	"id" varchar(32) PRIMARY KEY NOT NULL,
	"owner_id" bigint NOT NULL,
	"creator_id" bigint NOT NULL,
	"wallet_id" bigint NOT NULL,
	"amount_fen" bigint NOT NULL,
	"channel" varchar(16) NOT NULL,
	"provider" varchar(16) NOT NULL,
	"status" varchar(16) NOT NULL,
	"pay_url" text,
	"qr_code" text,
	"provider_trade_no" varchar(64),
	"bank_reference" varchar(64),
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "redeem_failures" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "redemption_codes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"code" varchar(32) NOT NULL,
	"batch_id" bigint NOT NULL,
	"kind" varchar(16) NOT NULL,
	"amount_fen" bigint NOT NULL,
	"min_order_fen" bigint DEFAULT 0 NOT NULL,
	"scope" text[] DEFAULT '{}'::text[] NOT NULL,
	"voucher_valid_days" smallint DEFAULT 30 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"redeemed_by" bigint,
	"redeemed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vouchers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"owner_id" bigint NOT NULL,
	"name" varchar(64) NOT NULL,
	"amount_fen" bigint NOT NULL,
	"min_order_fen" bigint DEFAULT 0 NOT NULL,
	"scope" text[] DEFAULT '{}'::text[] NOT NULL,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_to" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"used_order_id" bigint,
	"source" varchar(16) NOT NULL,
	"batch_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vouchers_amount" CHECK ("vouchers"."amount_fen" > 0)
);
--> statement-breakpoint
ALTER TABLE "audit_logs" ADD CONSTRAINT "audit_logs_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_items" ADD CONSTRAINT "invoice_items_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_profiles" ADD CONSTRAINT "invoice_profiles_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_batches" ADD CONSTRAINT "issue_batches_operator_id_users_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_wallet_id_users_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_wallet_id_users_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharges" ADD CONSTRAINT "recharges_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharges" ADD CONSTRAINT "recharges_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharges" ADD CONSTRAINT "recharges_wallet_id_users_id_fk" FOREIGN KEY ("wallet_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redemption_codes" ADD CONSTRAINT "redemption_codes_batch_id_issue_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."issue_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redemption_codes" ADD CONSTRAINT "redemption_codes_redeemed_by_users_id_fk" FOREIGN KEY ("redeemed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_logs_created_idx" ON "audit_logs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "audit_logs_target_idx" ON "audit_logs" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE INDEX "invoice_items_invoice_idx" ON "invoice_items" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "invoice_items_recharge_idx" ON "invoice_items" USING btree ("recharge_id");--> statement-breakpoint
CREATE INDEX "invoice_items_owner_month_idx" ON "invoice_items" USING btree ("owner_id","bill_month");--> statement-breakpoint
CREATE INDEX "invoices_owner_created_idx" ON "invoices" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "invoices_status_idx" ON "invoices" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "ledger_entries_wallet_idx" ON "ledger_entries" USING btree ("wallet_id","created_at");--> statement-breakpoint
CREATE INDEX "ledger_entries_transaction_idx" ON "ledger_entries" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "ledger_transactions_order_idx" ON "ledger_transactions" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_order_no_key" ON "orders" USING btree ("order_no");--> statement-breakpoint
CREATE INDEX "orders_owner_created_idx" ON "orders" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_resource_idx" ON "orders" USING btree ("resource_type","resource_id");--> statement-breakpoint
CREATE INDEX "orders_wallet_idx" ON "orders" USING btree ("wallet_id");--> statement-breakpoint
CREATE INDEX "recharges_owner_created_idx" ON "recharges" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "recharges_status_idx" ON "recharges" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "redeem_failures_user_idx" ON "redeem_failures" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "redemption_codes_code_key" ON "redemption_codes" USING btree ("code");--> statement-breakpoint
CREATE INDEX "redemption_codes_batch_idx" ON "redemption_codes" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "vouchers_owner_idx" ON "vouchers" USING btree ("owner_id","valid_to");