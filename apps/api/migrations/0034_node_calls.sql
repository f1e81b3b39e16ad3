CREATE TABLE "node_calls" (
	"call_id" uuid PRIMARY KEY NOT NULL,
	"node_id" uuid NOT NULL,
	"call" jsonb NOT NULL,
	"owner_url" text NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "node_calls_waiting_idx" ON "node_calls" USING btree ("node_id","created_at");