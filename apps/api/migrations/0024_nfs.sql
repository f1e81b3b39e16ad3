CREATE TABLE "nfs_clients" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"service_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"address" text NOT NULL,
	"version" text NOT NULL,
	"connected" boolean NOT NULL,
	"client_name" text NOT NULL,
	"mount_point" text
);
--> statement-breakpoint
CREATE TABLE "nfs_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"path" text NOT NULL,
	"client" text NOT NULL,
	"access" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"owner_user_id" uuid,
	"changed_generation" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "nfs_servers" (
	"service_id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"clients_reported_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "nfs_clients" ADD CONSTRAINT "nfs_clients_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nfs_exports" ADD CONSTRAINT "nfs_exports_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nfs_exports" ADD CONSTRAINT "nfs_exports_owner_user_id_workspace_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."workspace_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "nfs_servers" ADD CONSTRAINT "nfs_servers_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "nfs_clients_service_idx" ON "nfs_clients" USING btree ("service_id");--> statement-breakpoint
CREATE UNIQUE INDEX "nfs_exports_path_unique" ON "nfs_exports" USING btree ("service_id","path");--> statement-breakpoint
CREATE INDEX "nfs_exports_account_idx" ON "nfs_exports" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "nfs_exports_owner_idx" ON "nfs_exports" USING btree ("owner_user_id");