ALTER TABLE "payment_events" ADD COLUMN "refusal" text;--> statement-breakpoint
ALTER TABLE "payment_sessions" ADD COLUMN "payment_reference" text;--> statement-breakpoint
ALTER TABLE "payment_sessions" ADD COLUMN "refund_status" text;--> statement-breakpoint
ALTER TABLE "payment_sessions" ADD COLUMN "refund_reference" text;--> statement-breakpoint
ALTER TABLE "payment_sessions" ADD COLUMN "refunded_at" timestamp with time zone;