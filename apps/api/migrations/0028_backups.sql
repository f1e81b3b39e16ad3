CREATE TABLE "backup_restores" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"snapshot_id" text NOT NULL,
	"path" text NOT NULL,
	"target" text NOT NULL,
	"status" text NOT NULL,
	"restored_to" text,
	"files_restored" integer,
	"error_code" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "backup_schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"frequency" text NOT NULL,
	"hour" integer NOT NULL,
	"minute" integer NOT NULL,
	"weekday" integer NOT NULL,
	"month_day" integer NOT NULL,
	"time_zone" text NOT NULL,
	"paths" jsonb NOT NULL,
	"keep_full" integer NOT NULL,
	"keep_incremental" integer NOT NULL,
	"full_every_days" integer NOT NULL,
	"state" text NOT NULL,
	"provider_managed" boolean DEFAULT false NOT NULL,
	"next_run_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "backup_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"schedule_id" uuid,
	"schedule_name" text NOT NULL,
	"type" text NOT NULL,
	"trigger" text NOT NULL,
	"status" text NOT NULL,
	"due_at" timestamp with time zone,
	"paths" jsonb NOT NULL,
	"tags" jsonb NOT NULL,
	"retention" jsonb,
	"progress" jsonb,
	"snapshot_id" text,
	"bytes_added" bigint,
	"files" integer,
	"files_new" integer,
	"error_code" text,
	"error" text,
	"failure_mail" text,
	"pruned_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "backup_usage" (
	"service_id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"repository_bytes" bigint NOT NULL,
	"stored_bytes" bigint NOT NULL,
	"snapshots" integer NOT NULL,
	"measured_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "backup_restores" ADD CONSTRAINT "backup_restores_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_restores" ADD CONSTRAINT "backup_restores_session_id_backup_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."backup_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_schedules" ADD CONSTRAINT "backup_schedules_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_sessions" ADD CONSTRAINT "backup_sessions_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_sessions" ADD CONSTRAINT "backup_sessions_schedule_id_backup_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."backup_schedules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_usage" ADD CONSTRAINT "backup_usage_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "backup_restores_service_idx" ON "backup_restores" USING btree ("service_id","created_at");--> statement-breakpoint
CREATE INDEX "backup_restores_open_idx" ON "backup_restores" USING btree ("service_id") WHERE "backup_restores"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "backup_schedules_service_idx" ON "backup_schedules" USING btree ("service_id");--> statement-breakpoint
CREATE UNIQUE INDEX "backup_schedules_provider_unique" ON "backup_schedules" USING btree ("service_id") WHERE "backup_schedules"."provider_managed";--> statement-breakpoint
CREATE INDEX "backup_schedules_due_idx" ON "backup_schedules" USING btree ("next_run_at") WHERE "backup_schedules"."state" = 'active';--> statement-breakpoint
CREATE INDEX "backup_sessions_service_idx" ON "backup_sessions" USING btree ("service_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "backup_sessions_due_unique" ON "backup_sessions" USING btree ("schedule_id","due_at");--> statement-breakpoint
CREATE INDEX "backup_sessions_open_idx" ON "backup_sessions" USING btree ("service_id") WHERE "backup_sessions"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "backup_sessions_mail_idx" ON "backup_sessions" USING btree ("failure_mail") WHERE "backup_sessions"."failure_mail" = 'pending';