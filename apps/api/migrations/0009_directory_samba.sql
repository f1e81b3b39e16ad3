CREATE TABLE "workspace_group_members" (
	"group_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"service_id" uuid NOT NULL,
	"primary" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_group_members_group_id_user_id_pk" PRIMARY KEY("group_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "workspace_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"id_offset" integer NOT NULL,
	"changed_generation" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_groups_offset_in_block" CHECK ("workspace_groups"."id_offset" between 1 and 9999)
);
--> statement-breakpoint
CREATE TABLE "workspace_id_counters" (
	"service_id" uuid PRIMARY KEY NOT NULL,
	"next_user_offset" integer DEFAULT 1 NOT NULL,
	"next_group_offset" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"id_offset" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"password_crypt" text NOT NULL,
	"password_nt" text NOT NULL,
	"changed_generation" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_users_offset_in_block" CHECK ("workspace_users"."id_offset" between 1 and 9999)
);
--> statement-breakpoint
CREATE TABLE "samba_settings" (
	"service_id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"workgroup" text NOT NULL,
	"server_string" text NOT NULL,
	"min_protocol" text NOT NULL,
	"changed_generation" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "samba_share_groups" (
	"share_id" uuid NOT NULL,
	"group_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "samba_share_groups_share_id_group_id_pk" PRIMARY KEY("share_id","group_id")
);
--> statement-breakpoint
CREATE TABLE "samba_share_users" (
	"share_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"read" boolean NOT NULL,
	"write" boolean NOT NULL,
	"execute" boolean NOT NULL,
	"admin" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "samba_share_users_share_id_user_id_pk" PRIMARY KEY("share_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "samba_shares" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"path" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"guest_ok" boolean DEFAULT false NOT NULL,
	"browseable" boolean DEFAULT true NOT NULL,
	"bind_public_ip" boolean DEFAULT false NOT NULL,
	"changed_generation" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workspace_group_members" ADD CONSTRAINT "workspace_group_members_group_id_workspace_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."workspace_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_group_members" ADD CONSTRAINT "workspace_group_members_user_id_workspace_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."workspace_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_groups" ADD CONSTRAINT "workspace_groups_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_id_counters" ADD CONSTRAINT "workspace_id_counters_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_users" ADD CONSTRAINT "workspace_users_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "samba_settings" ADD CONSTRAINT "samba_settings_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "samba_share_groups" ADD CONSTRAINT "samba_share_groups_share_id_samba_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."samba_shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "samba_share_groups" ADD CONSTRAINT "samba_share_groups_group_id_workspace_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."workspace_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "samba_share_users" ADD CONSTRAINT "samba_share_users_share_id_samba_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."samba_shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "samba_share_users" ADD CONSTRAINT "samba_share_users_user_id_workspace_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."workspace_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "samba_shares" ADD CONSTRAINT "samba_shares_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workspace_group_members_user_idx" ON "workspace_group_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "workspace_group_members_one_primary" ON "workspace_group_members" USING btree ("user_id") WHERE "primary";--> statement-breakpoint
CREATE UNIQUE INDEX "workspace_groups_name_unique" ON "workspace_groups" USING btree ("service_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "workspace_groups_offset_unique" ON "workspace_groups" USING btree ("service_id","id_offset");--> statement-breakpoint
CREATE INDEX "workspace_groups_account_idx" ON "workspace_groups" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "workspace_users_name_unique" ON "workspace_users" USING btree ("service_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "workspace_users_offset_unique" ON "workspace_users" USING btree ("service_id","id_offset");--> statement-breakpoint
CREATE INDEX "workspace_users_account_idx" ON "workspace_users" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "samba_share_groups_group_idx" ON "samba_share_groups" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "samba_share_users_user_idx" ON "samba_share_users" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "samba_shares_name_unique" ON "samba_shares" USING btree ("service_id","name");--> statement-breakpoint
CREATE INDEX "samba_shares_account_idx" ON "samba_shares" USING btree ("account_id");