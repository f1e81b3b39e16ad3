ALTER TABLE "users" ADD COLUMN "registration_country" text;--> statement-breakpoint
-- Hand-written: existing accounts keep the country they hold now as their registration country.
UPDATE "users" SET "registration_country" = "country" WHERE "registration_country" IS NULL;
