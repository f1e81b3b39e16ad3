CREATE TABLE "vpn_config_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"service_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vpn_servers" (
	"service_id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"restart_generation" integer,
	"sessions_reported_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vpn_sessions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"service_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"real_address" text NOT NULL,
	"virtual_address" text NOT NULL,
	"bytes_sent" bigint NOT NULL,
	"bytes_received" bigint NOT NULL,
	"connected_since" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vpn_traffic" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"service_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"user_id" uuid,
	"hour" timestamp with time zone NOT NULL,
	"bytes_sent" bigint DEFAULT 0 NOT NULL,
	"bytes_received" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vpn_usage" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"service_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"month" text NOT NULL,
	"bytes_sent" bigint NOT NULL,
	"bytes_received" bigint NOT NULL,
	"over_limit" boolean NOT NULL,
	"reported_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vpn_users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"username" text NOT NULL,
	"password_crypt" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"full_name" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"traffic_limit_bytes" bigint DEFAULT 0 NOT NULL,
	"cert_generation" integer NOT NULL,
	"revoked_at" timestamp with time zone,
	"changed_generation" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "vpn_config_links" ADD CONSTRAINT "vpn_config_links_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_config_links" ADD CONSTRAINT "vpn_config_links_user_id_vpn_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."vpn_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_servers" ADD CONSTRAINT "vpn_servers_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_sessions" ADD CONSTRAINT "vpn_sessions_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_sessions" ADD CONSTRAINT "vpn_sessions_user_id_vpn_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."vpn_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_traffic" ADD CONSTRAINT "vpn_traffic_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_traffic" ADD CONSTRAINT "vpn_traffic_user_id_vpn_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."vpn_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_usage" ADD CONSTRAINT "vpn_usage_user_id_vpn_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."vpn_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_usage" ADD CONSTRAINT "vpn_usage_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_users" ADD CONSTRAINT "vpn_users_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vpn_config_links_user_idx" ON "vpn_config_links" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "vpn_config_links_expires_idx" ON "vpn_config_links" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "vpn_sessions_service_idx" ON "vpn_sessions" USING btree ("service_id");--> statement-breakpoint
CREATE INDEX "vpn_sessions_user_idx" ON "vpn_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "vpn_traffic_user_hour_unique" ON "vpn_traffic" USING btree ("user_id","hour");--> statement-breakpoint
CREATE INDEX "vpn_traffic_service_hour_idx" ON "vpn_traffic" USING btree ("service_id","hour");--> statement-breakpoint
CREATE UNIQUE INDEX "vpn_users_username_unique" ON "vpn_users" USING btree ("service_id",lower("username"));--> statement-breakpoint
CREATE INDEX "vpn_users_account_idx" ON "vpn_users" USING btree ("account_id");