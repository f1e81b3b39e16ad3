CREATE TABLE "service_labels" (
	"service_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_labels_pk" PRIMARY KEY("service_id","key")
);
--> statement-breakpoint
ALTER TABLE "service_labels" ADD CONSTRAINT "service_labels_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "service_labels_account_idx" ON "service_labels" USING btree ("account_id");