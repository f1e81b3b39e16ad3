CREATE TABLE "vies_checks" (
	"vat_number" text PRIMARY KEY NOT NULL,
	"valid" boolean NOT NULL,
	"name" text,
	"address" text,
	"request_date" text,
	"checked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "vies_checks_checked_at_idx" ON "vies_checks" USING btree ("checked_at");