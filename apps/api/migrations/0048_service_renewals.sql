CREATE TABLE "service_renewals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"service_id" uuid NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"order_id" uuid,
	"status" text DEFAULT 'open' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"first_failed_at" timestamp with time zone,
	"last_error" text,
	"claimed_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "service_renewals_service_period_unique" ON "service_renewals" USING btree ("service_id","period_end");--> statement-breakpoint
CREATE INDEX "service_renewals_due_idx" ON "service_renewals" USING btree ("status","next_attempt_at");