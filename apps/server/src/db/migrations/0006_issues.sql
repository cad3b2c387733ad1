CREATE TABLE "deliveries" (
	"delivery_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"build_id" uuid NOT NULL,
	"digest_id" uuid NOT NULL,
	"recipient" text NOT NULL,
	"kind" text NOT NULL,
	"subscriber_id" uuid,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"message_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sending_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deliveries_kind_check" CHECK ("deliveries"."kind" in ('owner', 'subscriber')),
	CONSTRAINT "deliveries_state_check" CHECK ("deliveries"."state" in ('pending', 'sending', 'sent', 'failed', 'uncertain', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "issue_runs" (
	"run_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"digest_id" uuid NOT NULL,
	"slot" timestamp with time zone NOT NULL,
	"trigger" text DEFAULT 'schedule' NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"reason" text,
	"build_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "issue_runs_trigger_check" CHECK ("issue_runs"."trigger" in ('schedule', 'manual')),
	CONSTRAINT "issue_runs_status_check" CHECK ("issue_runs"."status" in ('queued', 'built', 'skipped', 'empty', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_build_id_digest_builds_build_id_fk" FOREIGN KEY ("build_id") REFERENCES "public"."digest_builds"("build_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_digest_id_digests_digest_id_fk" FOREIGN KEY ("digest_id") REFERENCES "public"."digests"("digest_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_subscriber_id_digest_subscribers_subscriber_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."digest_subscribers"("subscriber_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_runs" ADD CONSTRAINT "issue_runs_digest_id_digests_digest_id_fk" FOREIGN KEY ("digest_id") REFERENCES "public"."digests"("digest_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_runs" ADD CONSTRAINT "issue_runs_build_id_digest_builds_build_id_fk" FOREIGN KEY ("build_id") REFERENCES "public"."digest_builds"("build_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_build_recipient_unique" ON "deliveries" USING btree ("build_id","recipient");--> statement-breakpoint
CREATE INDEX "deliveries_digest_idx" ON "deliveries" USING btree ("digest_id","created_at");--> statement-breakpoint
CREATE INDEX "deliveries_state_idx" ON "deliveries" USING btree ("state") WHERE "deliveries"."state" in ('pending', 'sending', 'uncertain');--> statement-breakpoint
CREATE UNIQUE INDEX "issue_runs_digest_slot_unique" ON "issue_runs" USING btree ("digest_id","slot");