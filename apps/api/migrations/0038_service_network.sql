CREATE TABLE "service_network" (
	"service_id" uuid PRIMARY KEY NOT NULL,
	"reachable_from" text NOT NULL,
	"client_routes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"counter_id" text,
	"counter_received" bigint DEFAULT 0 NOT NULL,
	"counter_sent" bigint DEFAULT 0 NOT NULL,
	"throttled" boolean DEFAULT false NOT NULL,
	"period_start" timestamp with time zone,
	"reported_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_traffic" (
	"service_id" uuid NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"received_bytes" bigint DEFAULT 0 NOT NULL,
	"sent_bytes" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "service_traffic_service_id_period_start_pk" PRIMARY KEY("service_id","period_start")
);
--> statement-breakpoint
ALTER TABLE "service_network" ADD CONSTRAINT "service_network_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_traffic" ADD CONSTRAINT "service_traffic_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;