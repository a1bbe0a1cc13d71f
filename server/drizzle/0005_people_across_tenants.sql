ALTER TABLE "user_tokens" ADD COLUMN "sets_password" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "vendor_users" ADD COLUMN "accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "vendor_users" ADD COLUMN "invited_firstname" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "vendor_users" ADD COLUMN "invited_lastname" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "vendor_users" ADD COLUMN "created_account" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Memberships before this migration were joined at once; only people who never set a password (their hash
-- is the placeholder every invited account started with) are still pending.
UPDATE "vendor_users" SET "accepted_at" = "vendor_users"."created_at" FROM "users"
WHERE "users"."id" = "vendor_users"."user_id" AND "users"."password_hash" NOT LIKE 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$%';
--> statement-breakpoint
-- The earliest pending membership of an account is the invitation that created it.
UPDATE "vendor_users" AS "vu" SET "created_account" = true WHERE "vu"."accepted_at" IS NULL
AND "vu"."created_at" = (SELECT min("created_at") FROM "vendor_users" WHERE "user_id" = "vu"."user_id");
--> statement-breakpoint
-- Reset links keep working; invitation links issued before cannot say which vendor created the account, so
-- they only accept while signed in (an owner resends one to let a new person choose a password).
UPDATE "user_tokens" SET "sets_password" = true WHERE "purpose" = 'reset' AND "used_at" IS NULL;
