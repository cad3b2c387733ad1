ALTER TABLE "issue_runs" DROP CONSTRAINT "issue_runs_trigger_check";--> statement-breakpoint
ALTER TABLE "digests" ADD COLUMN "paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "issue_runs" ADD COLUMN "catch_up_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "issue_runs" ADD CONSTRAINT "issue_runs_catch_up_check" CHECK (("issue_runs"."trigger" = 'catch_up') = ("issue_runs"."catch_up_since" is not null));--> statement-breakpoint
ALTER TABLE "issue_runs" ADD CONSTRAINT "issue_runs_trigger_check" CHECK ("issue_runs"."trigger" in ('schedule', 'manual', 'catch_up'));--> statement-breakpoint
-- Digests paused before their pause was recorded: the last change of the row is the best guess of when.
UPDATE "digests" SET "paused_at" = "updated_at" WHERE NOT "active";
