CREATE TABLE "source_cache" (
	"key_hash" text PRIMARY KEY NOT NULL,
	"status" integer NOT NULL,
	"url" text,
	"headers" jsonb NOT NULL,
	"body" "bytea" NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"retry_after_until" timestamp with time zone,
	"size" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "source_cache_expires_idx" ON "source_cache" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "source_cache_fetched_idx" ON "source_cache" USING btree ("fetched_at");