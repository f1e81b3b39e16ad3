CREATE TABLE "subuser_backup_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subuser_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "subuser_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subuser_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"token_hint" text NOT NULL,
	"device_name" text NOT NULL,
	"ip" text,
	"remember_me" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "subuser_sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "subusers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"totp_secret" text,
	"totp_pending" text,
	"totp_last_step" bigint,
	"last_login_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subuser_backup_codes" ADD CONSTRAINT "subuser_backup_codes_subuser_id_subusers_id_fk" FOREIGN KEY ("subuser_id") REFERENCES "public"."subusers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subuser_sessions" ADD CONSTRAINT "subuser_sessions_subuser_id_subusers_id_fk" FOREIGN KEY ("subuser_id") REFERENCES "public"."subusers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subusers" ADD CONSTRAINT "subusers_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subuser_backup_codes_unique" ON "subuser_backup_codes" USING btree ("subuser_id","code_hash");--> statement-breakpoint
CREATE INDEX "subuser_sessions_subuser_idx" ON "subuser_sessions" USING btree ("subuser_id","expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "subusers_name_unique" ON "subusers" USING btree ("service_id","username");--> statement-breakpoint
CREATE INDEX "subusers_account_idx" ON "subusers" USING btree ("account_id");