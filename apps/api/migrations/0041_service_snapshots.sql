CREATE TABLE "service_snapshots" (
	"service_id" uuid PRIMARY KEY NOT NULL,
	"supported" boolean NOT NULL,
	"reason" text,
	"snapshots" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reported_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "service_snapshots" ADD CONSTRAINT "service_snapshots_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;