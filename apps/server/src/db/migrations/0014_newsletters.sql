CREATE TABLE "digest_newsletter_items" (
	"digest_id" uuid NOT NULL,
	"message_id" uuid NOT NULL,
	"build_id" uuid,
	"carried_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "digest_newsletter_items_digest_id_message_id_pk" PRIMARY KEY("digest_id","message_id")
);
--> statement-breakpoint
CREATE TABLE "inbound_messages" (
	"message_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"sender_id" uuid NOT NULL,
	"internet_message_id" text NOT NULL,
	"recipient" text NOT NULL,
	"recipient_tag" text,
	"envelope_from" text NOT NULL,
	"from_address" text NOT NULL,
	"from_name" text,
	"reply_to" text,
	"subject" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"html" text,
	"text" text NOT NULL,
	"excerpt" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"authentication" jsonb NOT NULL,
	"kind" text DEFAULT 'newsletter' NOT NULL,
	"confirm_url" text,
	"forwarding_code" text,
	"resolved_at" timestamp with time zone,
	"read_at" timestamp with time zone,
	CONSTRAINT "inbound_messages_kind_check" CHECK ("inbound_messages"."kind" in ('newsletter', 'confirmation', 'forwarding_code', 'reply_to_confirm'))
);
--> statement-breakpoint
CREATE TABLE "newsletter_senders" (
	"sender_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"sender_key" text NOT NULL,
	"address" text NOT NULL,
	"list_id" text,
	"name" text NOT NULL,
	"state" text DEFAULT 'included' NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"message_count" integer DEFAULT 0 NOT NULL,
	"unsubscribe_url" text,
	"unsubscribe_mailto" text,
	"unsubscribe_one_click" boolean DEFAULT false NOT NULL,
	"unsubscribe_outcome" text,
	"unsubscribe_detail" text,
	"unsubscribed_at" timestamp with time zone,
	CONSTRAINT "newsletter_senders_state_check" CHECK ("newsletter_senders"."state" in ('included', 'muted', 'blocked', 'unsubscribed')),
	CONSTRAINT "newsletter_senders_unsubscribe_outcome_check" CHECK ("newsletter_senders"."unsubscribe_outcome" is null or "newsletter_senders"."unsubscribe_outcome" in ('sent', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "digest_newsletter_items" ADD CONSTRAINT "digest_newsletter_items_digest_id_digests_digest_id_fk" FOREIGN KEY ("digest_id") REFERENCES "public"."digests"("digest_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "digest_newsletter_items" ADD CONSTRAINT "digest_newsletter_items_message_id_inbound_messages_message_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."inbound_messages"("message_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "digest_newsletter_items" ADD CONSTRAINT "digest_newsletter_items_build_id_digest_builds_build_id_fk" FOREIGN KEY ("build_id") REFERENCES "public"."digest_builds"("build_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_sender_id_newsletter_senders_sender_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."newsletter_senders"("sender_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletter_senders" ADD CONSTRAINT "newsletter_senders_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_messages_user_internet_id_unique" ON "inbound_messages" USING btree ("user_id","internet_message_id");--> statement-breakpoint
CREATE INDEX "inbound_messages_user_received_idx" ON "inbound_messages" USING btree ("user_id","received_at");--> statement-breakpoint
CREATE INDEX "inbound_messages_sender_idx" ON "inbound_messages" USING btree ("sender_id","received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_senders_user_key_unique" ON "newsletter_senders" USING btree ("user_id","sender_key");--> statement-breakpoint
CREATE INDEX "newsletter_senders_user_address_idx" ON "newsletter_senders" USING btree ("user_id","address");