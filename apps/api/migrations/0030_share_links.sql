CREATE TABLE "share_link_access_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"link_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"ip" text NOT NULL,
	"user_agent" text NOT NULL,
	"result" text NOT NULL,
	"bytes_sent" bigint DEFAULT 0 NOT NULL,
	"path" text
);
--> statement-breakpoint
CREATE TABLE "share_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"type" text NOT NULL,
	"target" text NOT NULL,
	"label" text,
	"item_type" text NOT NULL,
	"token_hash" text NOT NULL,
	"token_sealed" text,
	"expiry" text NOT NULL,
	"expires_at" timestamp with time zone,
	"password_hash" text,
	"download_limit" integer,
	"downloads" integer DEFAULT 0 NOT NULL,
	"ip_allow" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"ip_deny" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_access_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "share_links_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "share_link_access_logs" ADD CONSTRAINT "share_link_access_logs_link_id_share_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."share_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "share_link_access_logs_link_idx" ON "share_link_access_logs" USING btree ("link_id","id");--> statement-breakpoint
CREATE INDEX "share_links_service_idx" ON "share_links" USING btree ("service_id","created_at");