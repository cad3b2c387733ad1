CREATE TABLE "digest_builds" (
	"build_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"digest_id" uuid NOT NULL,
	"build_number" integer NOT NULL,
	"html" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "digest_drafts" (
	"draft_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"sources" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "digest_subscribers" (
	"subscriber_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"digest_id" uuid NOT NULL,
	"email" text NOT NULL,
	"token" text NOT NULL,
	"subscribed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"unsubscribed_at" timestamp with time zone,
	"removed_at" timestamp with time zone,
	"notified_at" timestamp with time zone,
	"notice_pending" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "digests" (
	"digest_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"schedule_type" text DEFAULT 'daily' NOT NULL,
	"time" text DEFAULT '07:00' NOT NULL,
	"week_day" integer DEFAULT 1 NOT NULL,
	"month_day" integer DEFAULT 1 NOT NULL,
	"sources" jsonb NOT NULL,
	"next_run_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "digests_schedule_type_check" CHECK ("digests"."schedule_type" in ('daily', 'weekly', 'monthly')),
	CONSTRAINT "digests_time_check" CHECK ("digests"."time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
	CONSTRAINT "digests_week_day_check" CHECK ("digests"."week_day" between 0 and 6),
	CONSTRAINT "digests_month_day_check" CHECK ("digests"."month_day" between 1 and 31)
);
--> statement-breakpoint
ALTER TABLE "digest_builds" ADD CONSTRAINT "digest_builds_digest_id_digests_digest_id_fk" FOREIGN KEY ("digest_id") REFERENCES "public"."digests"("digest_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "digest_drafts" ADD CONSTRAINT "digest_drafts_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "digest_subscribers" ADD CONSTRAINT "digest_subscribers_digest_id_digests_digest_id_fk" FOREIGN KEY ("digest_id") REFERENCES "public"."digests"("digest_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "digests" ADD CONSTRAINT "digests_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "digest_builds_digest_number_unique" ON "digest_builds" USING btree ("digest_id","build_number");--> statement-breakpoint
CREATE INDEX "digest_drafts_user_created_idx" ON "digest_drafts" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "digest_subscribers_digest_email_unique" ON "digest_subscribers" USING btree ("digest_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "digest_subscribers_token_unique" ON "digest_subscribers" USING btree ("token");--> statement-breakpoint
CREATE INDEX "digests_user_created_idx" ON "digests" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "digests_next_run_idx" ON "digests" USING btree ("next_run_at");