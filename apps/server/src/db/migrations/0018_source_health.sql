CREATE TABLE "source_health" (
	"digest_id" uuid NOT NULL,
	"source_key" text NOT NULL,
	"last_success_at" timestamp with time zone,
	"last_error_at" timestamp with time zone,
	"last_error_kind" text,
	"last_error_detail" text,
	"last_error_status" integer,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"retry_at" timestamp with time zone,
	"alerted_at" timestamp with time zone,
	"redirect_to" text,
	"redirect_since" timestamp with time zone,
	"moved_to" text,
	"moved_at" timestamp with time zone,
	CONSTRAINT "source_health_digest_id_source_key_pk" PRIMARY KEY("digest_id","source_key")
);
--> statement-breakpoint
ALTER TABLE "source_cache" ADD COLUMN "moved_to" text;--> statement-breakpoint
ALTER TABLE "source_health" ADD CONSTRAINT "source_health_digest_id_digests_digest_id_fk" FOREIGN KEY ("digest_id") REFERENCES "public"."digests"("digest_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A digest card shows how many of its sources fail (issue 17): writes to source_health notify the owner's
-- digest list as writes to digests do (0017), so a list kept in memory never shows a stale count.
CREATE TRIGGER "source_health_inserted_notify" AFTER INSERT ON "source_health"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "notify_digest_list_owners"();
--> statement-breakpoint
CREATE TRIGGER "source_health_updated_notify" AFTER UPDATE ON "source_health"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "notify_digest_list_owners"();
--> statement-breakpoint
CREATE TRIGGER "source_health_deleted_notify" AFTER DELETE ON "source_health"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "notify_digest_list_owners"();
