-- Whatever a digest card shows (GET /api/digests) is read from digests, digest_subscribers, digest_builds
-- and the owner's time zone. Every change to them notifies `digest_list_changed` with the owner's id, so
-- an API process may keep a user's list in memory until it is told it changed (db/database-changes.ts).
-- Statement triggers with transition tables: a statement touching many rows (the scheduler moving every
-- due digest, the retention sweep) notifies each owner once, in one query.
CREATE FUNCTION "notify_digest_list_owners"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'digests' THEN
    PERFORM pg_notify('digest_list_changed', owners.user_id::text)
    FROM (SELECT DISTINCT user_id FROM changed_rows) AS owners;
  ELSE
    PERFORM pg_notify('digest_list_changed', owners.user_id::text)
    FROM (
      SELECT DISTINCT d.user_id FROM changed_rows c JOIN digests d ON d.digest_id = c.digest_id
    ) AS owners;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "digests_inserted_notify" AFTER INSERT ON "digests"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "notify_digest_list_owners"();
--> statement-breakpoint
CREATE TRIGGER "digests_updated_notify" AFTER UPDATE ON "digests"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "notify_digest_list_owners"();
--> statement-breakpoint
CREATE TRIGGER "digests_deleted_notify" AFTER DELETE ON "digests"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "notify_digest_list_owners"();
--> statement-breakpoint
CREATE TRIGGER "digest_subscribers_inserted_notify" AFTER INSERT ON "digest_subscribers"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "notify_digest_list_owners"();
--> statement-breakpoint
CREATE TRIGGER "digest_subscribers_updated_notify" AFTER UPDATE ON "digest_subscribers"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "notify_digest_list_owners"();
--> statement-breakpoint
CREATE TRIGGER "digest_subscribers_deleted_notify" AFTER DELETE ON "digest_subscribers"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "notify_digest_list_owners"();
--> statement-breakpoint
CREATE TRIGGER "digest_builds_inserted_notify" AFTER INSERT ON "digest_builds"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "notify_digest_list_owners"();
--> statement-breakpoint
CREATE TRIGGER "digest_builds_updated_notify" AFTER UPDATE ON "digest_builds"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "notify_digest_list_owners"();
--> statement-breakpoint
CREATE TRIGGER "digest_builds_deleted_notify" AFTER DELETE ON "digest_builds"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION "notify_digest_list_owners"();
--> statement-breakpoint
-- A digest card shows its times in the owner's zone. A row trigger: PostgreSQL allows no transition table
-- on a trigger limited to a column, and the zone is changed one user at a time.
CREATE FUNCTION "notify_digest_list_of_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('digest_list_changed', NEW.user_id::text);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_time_zone_updated_notify" AFTER UPDATE OF "timezone" ON "users"
  FOR EACH ROW WHEN (OLD."timezone" IS DISTINCT FROM NEW."timezone")
  EXECUTE FUNCTION "notify_digest_list_of_user"();
