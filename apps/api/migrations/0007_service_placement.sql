ALTER TABLE "services" ADD COLUMN "node_id" uuid;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "id_base" integer;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "observed_generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "failures" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "drivers" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "file_count" integer;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "reported_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "services_node_idx" ON "services" USING btree ("node_id");--> statement-breakpoint
CREATE UNIQUE INDEX "services_node_address_unique" ON "services" USING btree ("node_id","address");--> statement-breakpoint
CREATE UNIQUE INDEX "services_node_id_base_unique" ON "services" USING btree ("node_id","id_base");