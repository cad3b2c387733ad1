-- A digest's sent items go with it through this trigger instead of a foreign key: the key's check of every
-- inserted row was 40 % of recording an issue's items (docs/decisions/0006). One statement per deletion
-- (a digest, or all of an account's through the users → digests cascade); the primary key, which starts
-- with digest_id, finds the rows.
ALTER TABLE "digest_sent_items" DROP CONSTRAINT "digest_sent_items_digest_id_digests_digest_id_fk";--> statement-breakpoint
CREATE FUNCTION "digest_sent_items_follow_digest"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM digest_sent_items s USING deleted_digests d WHERE s.digest_id = d.digest_id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "digests_deleted_sent_items" AFTER DELETE ON "digests"
  REFERENCING OLD TABLE AS deleted_digests
  FOR EACH STATEMENT EXECUTE FUNCTION "digest_sent_items_follow_digest"();
