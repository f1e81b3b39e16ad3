CREATE TABLE "ldap_directories" (
	"service_id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"bind_password_crypt" text,
	"anonymous_read" boolean DEFAULT false NOT NULL,
	"reported_users" integer,
	"reported_groups" integer,
	"locked_users" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"synced_at" timestamp with time zone,
	"reported_at" timestamp with time zone,
	"changed_generation" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ldap_user_flags" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"service_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"suspended" boolean DEFAULT false NOT NULL,
	"expires_on" text,
	"changed_generation" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ldap_directories" ADD CONSTRAINT "ldap_directories_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ldap_user_flags" ADD CONSTRAINT "ldap_user_flags_user_id_workspace_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."workspace_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ldap_user_flags" ADD CONSTRAINT "ldap_user_flags_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ldap_user_flags_service_idx" ON "ldap_user_flags" USING btree ("service_id");