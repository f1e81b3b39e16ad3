CREATE TABLE "service_departures" (
	"service_id" uuid NOT NULL,
	"node_id" uuid NOT NULL,
	"generation" integer NOT NULL,
	"address" text NOT NULL,
	"id_base" integer NOT NULL,
	"disk_space" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_departures_service_id_node_id_pk" PRIMARY KEY("service_id","node_id")
);
--> statement-breakpoint
ALTER TABLE "nodes" ADD COLUMN "failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "standby_node_id" uuid;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "replica_name" text;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "replica_taken_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "replica_received_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "replica_bytes" bigint;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "move_target_node_id" uuid;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "move_phase" text;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "move_stopped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "move_sync_token" text;--> statement-breakpoint
CREATE INDEX "services_standby_node_idx" ON "services" USING btree ("standby_node_id");