CREATE TABLE "digest_sent_items" (
	"digest_id" uuid NOT NULL,
	"source_key" text NOT NULL,
	"identity" text NOT NULL,
	"first_sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "digest_sent_items_digest_id_source_key_identity_pk" PRIMARY KEY("digest_id","source_key","identity")
);
--> statement-breakpoint
ALTER TABLE "digests" ADD COLUMN "send_only_when_new" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "digest_sent_items" ADD CONSTRAINT "digest_sent_items_digest_id_digests_digest_id_fk" FOREIGN KEY ("digest_id") REFERENCES "public"."digests"("digest_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "digest_sent_items_first_sent_idx" ON "digest_sent_items" USING btree ("first_sent_at");--> statement-breakpoint
-- Stored sources of the list kinds gain their "Only new items" setting, on (its default), so every stored
-- source has the shape the contracts describe. Other kinds and sources that have it are left as they are.
UPDATE "digests" SET "sources" = (
	SELECT jsonb_agg(CASE
		WHEN source->>'type' IN ('HACKER_NEWS', 'RSS', 'REDDIT', 'YOUTUBE', 'PRODUCT_HUNT', 'TWITTER_TWEETS', 'TWITTER_TIMELINE', 'TWITTER_SEARCH', 'TWITTER_LIST') AND NOT source ? 'onlyNew'
		THEN source || '{"onlyNew": true}'::jsonb ELSE source END ORDER BY position)
	FROM jsonb_array_elements("sources") WITH ORDINALITY AS element(source, position)
) WHERE jsonb_array_length("sources") > 0;--> statement-breakpoint
UPDATE "digest_drafts" SET "sources" = (
	SELECT jsonb_agg(CASE
		WHEN source->>'type' IN ('HACKER_NEWS', 'RSS', 'REDDIT', 'YOUTUBE', 'PRODUCT_HUNT', 'TWITTER_TWEETS', 'TWITTER_TIMELINE', 'TWITTER_SEARCH', 'TWITTER_LIST') AND NOT source ? 'onlyNew'
		THEN source || '{"onlyNew": true}'::jsonb ELSE source END ORDER BY position)
	FROM jsonb_array_elements("sources") WITH ORDINALITY AS element(source, position)
) WHERE jsonb_array_length("sources") > 0;
