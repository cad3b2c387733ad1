ALTER TABLE "digests" ADD COLUMN "issue_retention_months" integer DEFAULT 12 NOT NULL;--> statement-breakpoint
CREATE INDEX "digest_builds_digest_created_idx" ON "digest_builds" USING btree ("digest_id","created_at");--> statement-breakpoint
ALTER TABLE "digests" ADD CONSTRAINT "digests_issue_retention_months_check" CHECK ("digests"."issue_retention_months" in (1, 3, 6, 12, 24));