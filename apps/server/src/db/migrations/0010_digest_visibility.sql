-- Every digest, old ones included, starts private: issues stored before may hold meetings, revenue or a
-- home timeline, and have no public copy (public_html null), so they are never shown on a public page.
ALTER TABLE "digest_builds" ADD COLUMN "public_html" text;--> statement-breakpoint
ALTER TABLE "digests" ADD COLUMN "visibility" text DEFAULT 'private' NOT NULL;--> statement-breakpoint
ALTER TABLE "digests" ADD COLUMN "share_token" text;--> statement-breakpoint
CREATE UNIQUE INDEX "digests_share_token_unique" ON "digests" USING btree ("share_token");--> statement-breakpoint
ALTER TABLE "digests" ADD CONSTRAINT "digests_visibility_check" CHECK ("digests"."visibility" in ('private', 'public'));--> statement-breakpoint
ALTER TABLE "digests" ADD CONSTRAINT "digests_share_token_check" CHECK (("digests"."visibility" = 'public') = ("digests"."share_token" is not null));