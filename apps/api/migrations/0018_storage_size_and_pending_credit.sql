ALTER TABLE "services" ADD COLUMN "storage_bytes" bigint;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "not_serving" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "plan_changes" ADD COLUMN "credit_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "plan_changes_credit_pending_idx" ON "plan_changes" USING btree ("service_id") WHERE credit_pending;