CREATE TABLE "mail_recipient_log" (
	"entry_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"email" text NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_recipient_log_kind_check" CHECK ("mail_recipient_log"."kind" in ('invitation', 'issue'))
);
--> statement-breakpoint
CREATE TABLE "mail_suppressions" (
	"suppression_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"owner_id" uuid,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_suppressions_email_owner_unique" UNIQUE NULLS NOT DISTINCT("email","owner_id"),
	CONSTRAINT "mail_suppressions_reason_check" CHECK ("mail_suppressions"."reason" in ('declined', 'unsubscribed', 'bounced', 'refused'))
);
--> statement-breakpoint
ALTER TABLE "deliveries" DROP CONSTRAINT "deliveries_state_check";--> statement-breakpoint
ALTER TABLE "digest_subscribers" ADD COLUMN "status" text DEFAULT 'invited' NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_recipient_log" ADD CONSTRAINT "mail_recipient_log_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_suppressions" ADD CONSTRAINT "mail_suppressions_owner_id_users_user_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_recipient_log_email_idx" ON "mail_recipient_log" USING btree ("email","created_at");--> statement-breakpoint
CREATE INDEX "mail_recipient_log_user_idx" ON "mail_recipient_log" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "digest_subscribers" ADD CONSTRAINT "digest_subscribers_status_check" CHECK ("digest_subscribers"."status" in ('invited', 'subscribed', 'declined', 'unsubscribed', 'bouncing'));--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_state_check" CHECK ("deliveries"."state" in ('held', 'pending', 'sending', 'sent', 'failed', 'uncertain', 'cancelled'));--> statement-breakpoint
-- Friends added before double opt-in: every mail they got carried a one-click unsubscribe, so the active
-- ones stay subscribed, and the ones who left stay unsubscribed and suppressed for that owner.
UPDATE "digest_subscribers" SET "status" = CASE WHEN "unsubscribed_at" IS NULL THEN 'subscribed' ELSE 'unsubscribed' END;--> statement-breakpoint
INSERT INTO "mail_suppressions" ("email", "owner_id", "reason", "created_at")
SELECT DISTINCT ON (s."email", d."user_id") s."email", d."user_id", 'unsubscribed', s."unsubscribed_at"
FROM "digest_subscribers" s JOIN "digests" d ON d."digest_id" = s."digest_id"
WHERE s."unsubscribed_at" IS NOT NULL
ORDER BY s."email", d."user_id", s."unsubscribed_at"
ON CONFLICT DO NOTHING;
