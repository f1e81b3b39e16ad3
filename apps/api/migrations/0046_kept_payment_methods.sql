CREATE TABLE "payment_customers" (
	"account_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"customer_ref" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_customers_account_id_provider_pk" PRIMARY KEY("account_id","provider")
);
--> statement-breakpoint
CREATE TABLE "payment_method_setups" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"provider_setup_id" text,
	"status" text NOT NULL,
	"return_url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_methods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"customer_ref" text NOT NULL,
	"method_ref" text NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expiry_mailed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "payment_sessions" ADD COLUMN "save_payment_method" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_customers_ref_unique" ON "payment_customers" USING btree ("provider","customer_ref");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_methods_account_unique" ON "payment_methods" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "payment_methods_expiry_idx" ON "payment_methods" USING btree ("exp_year","exp_month");