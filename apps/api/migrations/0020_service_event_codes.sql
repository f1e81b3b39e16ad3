ALTER TABLE "service_events" ADD COLUMN "code" text;
