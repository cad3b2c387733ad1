-- A ticket issued before this release has no browser to be bound to; it would live two minutes more at most.
DELETE FROM "social_tickets";--> statement-breakpoint
ALTER TABLE "social_tickets" ADD COLUMN "browser_binding_hash" text NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD COLUMN "browser_binding_hash" text;
