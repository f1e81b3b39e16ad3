CREATE TABLE "monitoring_report_keys" (
	"service_id" uuid PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"stored_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "monitoring_report_keys" ADD CONSTRAINT "monitoring_report_keys_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;