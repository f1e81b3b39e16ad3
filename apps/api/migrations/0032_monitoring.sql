CREATE TABLE "monitoring_activity_hours" (
	"service_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"source" smallint NOT NULL,
	"kind" smallint NOT NULL,
	"events" integer NOT NULL,
	"bytes" bigint NOT NULL,
	CONSTRAINT "monitoring_activity_hours_service_id_hour_source_kind_pk" PRIMARY KEY("service_id","hour","source","kind")
);
--> statement-breakpoint
CREATE TABLE "monitoring_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"service_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"level" text NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"raised_at" timestamp with time zone NOT NULL,
	"cleared_at" timestamp with time zone,
	"mail" text,
	"hook" text
);
--> statement-breakpoint
CREATE TABLE "monitoring_applies" (
	"service_id" uuid NOT NULL,
	"generation" integer NOT NULL,
	"kind" text NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"applied_at" timestamp with time zone,
	CONSTRAINT "monitoring_applies_service_id_generation_pk" PRIMARY KEY("service_id","generation")
);
--> statement-breakpoint
CREATE TABLE "monitoring_daemon_starts" (
	"service_id" uuid NOT NULL,
	"daemon" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	CONSTRAINT "monitoring_daemon_starts_service_id_daemon_started_at_pk" PRIMARY KEY("service_id","daemon","started_at")
);
--> statement-breakpoint
CREATE TABLE "monitoring_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"service_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"source" smallint NOT NULL,
	"kind" smallint NOT NULL,
	"username" text,
	"path" text,
	"target" text,
	"bytes" bigint,
	"remote_address" text,
	"node_key" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitoring_usage_samples" (
	"service_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"used_bytes" bigint NOT NULL,
	"size_bytes" bigint,
	"files" bigint NOT NULL,
	CONSTRAINT "monitoring_usage_samples_service_id_hour_pk" PRIMARY KEY("service_id","hour")
);
--> statement-breakpoint
CREATE TABLE "monitoring_user_hours" (
	"service_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"username" text NOT NULL,
	"events" integer NOT NULL,
	"bytes" bigint NOT NULL,
	CONSTRAINT "monitoring_user_hours_service_id_hour_username_pk" PRIMARY KEY("service_id","hour","username")
);
--> statement-breakpoint
CREATE TABLE "monitoring_user_kind_hours" (
	"service_id" uuid NOT NULL,
	"username" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"source" smallint NOT NULL,
	"kind" smallint NOT NULL,
	"events" integer NOT NULL,
	"bytes" bigint NOT NULL,
	CONSTRAINT "monitoring_user_kind_hours_service_id_username_hour_source_kind_pk" PRIMARY KEY("service_id","username","hour","source","kind")
);
--> statement-breakpoint
CREATE TABLE "monitoring_user_usage" (
	"service_id" uuid NOT NULL,
	"username" text NOT NULL,
	"bytes" bigint NOT NULL,
	"files" bigint NOT NULL,
	"measured_at" timestamp with time zone NOT NULL,
	CONSTRAINT "monitoring_user_usage_service_id_username_pk" PRIMARY KEY("service_id","username")
);
--> statement-breakpoint
CREATE TABLE "monitoring_webhooks" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"secret_sealed" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_delivery_at" timestamp with time zone,
	"last_delivery_ok" text,
	"last_delivery_status" integer
);
--> statement-breakpoint
ALTER TABLE "monitoring_activity_hours" ADD CONSTRAINT "monitoring_activity_hours_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_alerts" ADD CONSTRAINT "monitoring_alerts_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_applies" ADD CONSTRAINT "monitoring_applies_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_daemon_starts" ADD CONSTRAINT "monitoring_daemon_starts_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_events" ADD CONSTRAINT "monitoring_events_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_usage_samples" ADD CONSTRAINT "monitoring_usage_samples_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_user_hours" ADD CONSTRAINT "monitoring_user_hours_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_user_kind_hours" ADD CONSTRAINT "monitoring_user_kind_hours_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_user_usage" ADD CONSTRAINT "monitoring_user_usage_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "monitoring_alerts_open" ON "monitoring_alerts" USING btree ("service_id","kind","subject") WHERE "monitoring_alerts"."cleared_at" IS NULL;--> statement-breakpoint
CREATE INDEX "monitoring_alerts_account" ON "monitoring_alerts" USING btree ("account_id","raised_at");--> statement-breakpoint
CREATE INDEX "monitoring_alerts_owed" ON "monitoring_alerts" USING btree ("raised_at") WHERE "monitoring_alerts"."mail" = 'pending' OR "monitoring_alerts"."hook" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "monitoring_applies_requested" ON "monitoring_applies" USING btree ("service_id","requested_at");--> statement-breakpoint
CREATE UNIQUE INDEX "monitoring_events_node_key" ON "monitoring_events" USING btree ("service_id","node_key");--> statement-breakpoint
CREATE INDEX "monitoring_events_service_at" ON "monitoring_events" USING btree ("service_id","at","id");--> statement-breakpoint
CREATE INDEX "monitoring_events_service_user_at" ON "monitoring_events" USING btree ("service_id","username","at","id");--> statement-breakpoint
CREATE INDEX "monitoring_events_at" ON "monitoring_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "monitoring_user_kind_hours_kind" ON "monitoring_user_kind_hours" USING btree ("service_id","kind","hour");--> statement-breakpoint
-- Every generation a service's node is asked to apply, and when it did (the monitoring tasks).
-- Written by hand (drizzle-kit does not model triggers): a trigger sees every path that moves a
-- generation, whichever module moved it. The generation that gives the service its node is its
-- provisioning; the node reporting a generation applied applies every one up to it. Times are
-- the row's own (updated_at, reported_at: the API's clock of the change and of the report).
CREATE FUNCTION "monitoring_applies_track"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.generation > OLD.generation THEN
    INSERT INTO "monitoring_applies" ("service_id", "generation", "kind", "requested_at")
    VALUES (
      NEW.id,
      NEW.generation,
      CASE WHEN OLD.node_id IS NULL AND NEW.node_id IS NOT NULL THEN 'provisioning' ELSE 'apply' END,
      NEW.updated_at
    )
    ON CONFLICT DO NOTHING;
  END IF;
  IF NEW.observed_generation > OLD.observed_generation THEN
    UPDATE "monitoring_applies" SET "applied_at" = coalesce(NEW.reported_at, now())
    WHERE "service_id" = NEW.id AND "generation" <= NEW.observed_generation AND "applied_at" IS NULL;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "monitoring_applies_track" AFTER UPDATE OF "generation", "observed_generation" ON "services" FOR EACH ROW EXECUTE FUNCTION "monitoring_applies_track"();
