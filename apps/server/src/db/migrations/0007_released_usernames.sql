CREATE TABLE "released_usernames" (
	"username_lower" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"released_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "released_usernames" ADD CONSTRAINT "released_usernames_user_id_users_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "released_usernames_released_idx" ON "released_usernames" USING btree ("released_at");