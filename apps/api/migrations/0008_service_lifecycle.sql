CREATE TABLE "service_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"level" text NOT NULL,
	"message" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "status_changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Services from before this migration: their status last changed no later than their last update.
UPDATE "services" SET "status_changed_at" = "updated_at";--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "run_state" text DEFAULT 'running' NOT NULL;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "restart_generation" integer;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "description" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "expiry_reminders" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "expiry_notice" text;--> statement-breakpoint
CREATE INDEX "service_events_service_idx" ON "service_events" USING btree ("service_id","created_at");--> statement-breakpoint
CREATE INDEX "services_status_valid_until_idx" ON "services" USING btree ("status","valid_until");