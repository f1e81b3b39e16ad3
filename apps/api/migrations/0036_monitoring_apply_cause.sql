ALTER TABLE "monitoring_applies" ADD COLUMN "cause" text;--> statement-breakpoint
-- Written by hand (drizzle-kit does not model triggers): the 0032 trigger, now also saying why a
-- generation was asked for, from what the update changed: the owner's start, stop or restart, a
-- plan change, or a lifecycle status change. Daemon starts while such a generation is applied are
-- expected, not a daemon restarting over and over (alert-rules.ts).
CREATE OR REPLACE FUNCTION "monitoring_applies_track"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.generation > OLD.generation THEN
    INSERT INTO "monitoring_applies" ("service_id", "generation", "kind", "cause", "requested_at")
    VALUES (
      NEW.id,
      NEW.generation,
      CASE WHEN OLD.node_id IS NULL AND NEW.node_id IS NOT NULL THEN 'provisioning' ELSE 'apply' END,
      CASE
        WHEN NEW.run_state IS DISTINCT FROM OLD.run_state
          OR NEW.restart_generation IS DISTINCT FROM OLD.restart_generation THEN 'owner'
        WHEN NEW.product_id IS DISTINCT FROM OLD.product_id
          OR NEW.disk_space IS DISTINCT FROM OLD.disk_space
          OR NEW.users_count IS DISTINCT FROM OLD.users_count THEN 'plan'
        WHEN NEW.status IS DISTINCT FROM OLD.status THEN 'lifecycle'
      END,
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
