-- Issues are written once per build and read rarely: PostgreSQL's default compression (pglz) made storing
-- one (≈ 70 kB of HTML and text) its most expensive statement of a burst; lz4 costs a third of it and
-- stores them smaller (docs/decisions/0006). Values stored before stay pglz and read as before. A server
-- built without lz4 (PGlite, the embedded database) keeps pglz.
DO $$
BEGIN
  ALTER TABLE "digest_builds"
    ALTER COLUMN "html" SET COMPRESSION lz4,
    ALTER COLUMN "text" SET COMPRESSION lz4,
    ALTER COLUMN "public_html" SET COMPRESSION lz4;
  ALTER TABLE "source_cache" ALTER COLUMN "body" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END
$$;
