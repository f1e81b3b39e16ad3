CREATE TABLE "backup_repository_keys" (
	"service_id" uuid PRIMARY KEY NOT NULL,
	"key_sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "backup_repository_keys" ADD CONSTRAINT "backup_repository_keys_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;