-- A volatile default is evaluated for each existing row: every delivery already stored gets its own token.
ALTER TABLE "deliveries" ADD COLUMN "bounce_token" text DEFAULT replace(gen_random_uuid()::text, '-', '') NOT NULL;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "bounced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "bounce_kind" text;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "bounce_diagnostic" text;--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_bounce_token_unique" ON "deliveries" USING btree ("bounce_token");--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_bounce_check" CHECK (("deliveries"."bounce_kind" is null and "deliveries"."bounced_at" is null) or ("deliveries"."bounce_kind" in ('bounce', 'complaint') and "deliveries"."bounced_at" is not null));