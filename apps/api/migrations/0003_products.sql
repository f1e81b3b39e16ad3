CREATE TABLE "product_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" text NOT NULL,
	"type" text NOT NULL,
	"unit_value" integer NOT NULL,
	"price_minor" integer NOT NULL,
	"default_quantity" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_periods" (
	"product_id" text NOT NULL,
	"id" text NOT NULL,
	"months" integer NOT NULL,
	"discount_percent" numeric(5, 2) DEFAULT 0 NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	CONSTRAINT "product_periods_product_id_id_pk" PRIMARY KEY("product_id","id")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"price_minor" integer NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_recurring" boolean DEFAULT true NOT NULL,
	"disk_space_gb" integer NOT NULL,
	"allowed_users" integer NOT NULL,
	"address" text NOT NULL,
	"support" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "product_options" ADD CONSTRAINT "product_options_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_periods" ADD CONSTRAINT "product_periods_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;