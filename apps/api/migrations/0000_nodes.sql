CREATE TABLE "nodes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"hostname" text NOT NULL,
	"agent_version" text NOT NULL,
	"token_hash" text NOT NULL,
	"disk_total_bytes" bigint DEFAULT 0 NOT NULL,
	"disk_free_bytes" bigint DEFAULT 0 NOT NULL,
	"addresses" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_seen_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "nodes_name_unique" UNIQUE("name")
);
