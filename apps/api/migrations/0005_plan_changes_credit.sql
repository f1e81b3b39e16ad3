CREATE TABLE "plan_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"service_id" uuid NOT NULL,
	"direction" text NOT NULL,
	"status" text NOT NULL,
	"from_configuration" jsonb NOT NULL,
	"to_configuration" jsonb NOT NULL,
	"quote" jsonb NOT NULL,
	"order_id" uuid,
	"credit_minor" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount_minor" integer NOT NULL,
	"service_id" uuid,
	"order_id" uuid,
	"plan_change_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "credit_applied_minor" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "plan_change_id" uuid;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "paid_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "paid_months" integer;--> statement-breakpoint
-- Services bought before this migration: their paid span is their order's period.
UPDATE "services" SET "paid_months" = "orders"."months", "paid_from" = "services"."valid_until" - make_interval(months => "orders"."months") FROM "orders" WHERE "orders"."id" = "services"."order_id";--> statement-breakpoint
UPDATE "services" SET "paid_months" = 1, "paid_from" = "created_at" WHERE "paid_months" IS NULL;--> statement-breakpoint
ALTER TABLE "services" ALTER COLUMN "paid_from" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "services" ALTER COLUMN "paid_months" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "disk_used_bytes" bigint;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "users_in_use" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "plan_changes_service_idx" ON "plan_changes" USING btree ("service_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "plan_changes_order_unique" ON "plan_changes" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "plan_changes_one_open_per_service" ON "plan_changes" USING btree ("service_id") WHERE status = 'awaiting_payment';--> statement-breakpoint
CREATE INDEX "credit_entries_account_idx" ON "credit_entries" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_entries_order_unique" ON "credit_entries" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_entries_plan_change_unique" ON "credit_entries" USING btree ("plan_change_id");