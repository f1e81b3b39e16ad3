CREATE TABLE "ftp_session_reports" (
	"service_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"protocol" text NOT NULL,
	"reported_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ftp_session_reports_service_id_protocol_pk" PRIMARY KEY("service_id","protocol")
);
--> statement-breakpoint
CREATE TABLE "ftp_sessions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"service_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"protocol" text NOT NULL,
	"user_id" uuid NOT NULL,
	"remote_address" text,
	"connected_since" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ftp_settings" (
	"service_id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"ftp_enabled" boolean NOT NULL,
	"sftp_enabled" boolean NOT NULL,
	"passive_port_min" integer NOT NULL,
	"passive_port_max" integer NOT NULL,
	"max_clients" integer NOT NULL,
	"max_clients_per_user" integer NOT NULL,
	"idle_timeout_minutes" integer NOT NULL,
	"tls_required" boolean NOT NULL,
	"changed_generation" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ftp_users" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"service_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"enabled" boolean NOT NULL,
	"permissions" text NOT NULL,
	"changed_generation" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ftp_session_reports" ADD CONSTRAINT "ftp_session_reports_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ftp_sessions" ADD CONSTRAINT "ftp_sessions_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ftp_sessions" ADD CONSTRAINT "ftp_sessions_user_id_workspace_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."workspace_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ftp_settings" ADD CONSTRAINT "ftp_settings_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ftp_users" ADD CONSTRAINT "ftp_users_user_id_workspace_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."workspace_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ftp_users" ADD CONSTRAINT "ftp_users_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ftp_sessions_service_idx" ON "ftp_sessions" USING btree ("service_id");--> statement-breakpoint
CREATE INDEX "ftp_sessions_user_idx" ON "ftp_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "ftp_users_service_idx" ON "ftp_users" USING btree ("service_id");