CREATE TABLE "backup_clients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"vpn_login_id" uuid,
	"password_bcrypt" text NOT NULL,
	"revoked_at" timestamp with time zone,
	"snapshots" integer DEFAULT 0 NOT NULL,
	"repository_bytes" bigint,
	"last_push_at" timestamp with time zone,
	"pushing" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "vpn_users" ADD COLUMN "purpose" text DEFAULT 'person' NOT NULL;--> statement-breakpoint
ALTER TABLE "backup_clients" ADD CONSTRAINT "backup_clients_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_clients" ADD CONSTRAINT "backup_clients_vpn_login_id_vpn_users_id_fk" FOREIGN KEY ("vpn_login_id") REFERENCES "public"."vpn_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "backup_clients_name_unique" ON "backup_clients" USING btree ("service_id",lower("name"));