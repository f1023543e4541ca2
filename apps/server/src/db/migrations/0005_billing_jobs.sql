ALTER TABLE "sms_outbox" ADD COLUMN "content" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "creator_id" bigint NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "recipient_id" bigint;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_recipient_id_users_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("owner_id","creator_id") WHERE "notifications"."read_at" is null;--> statement-breakpoint
CREATE INDEX "notifications_sms_pending_idx" ON "notifications" USING btree ("created_at") WHERE "notifications"."sms_status" = 'pending';