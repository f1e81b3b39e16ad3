ALTER TABLE "nfs_exports" ADD COLUMN "reads" bigint;--> statement-breakpoint
ALTER TABLE "nfs_exports" ADD COLUMN "read_bytes" bigint;--> statement-breakpoint
ALTER TABLE "nfs_exports" ADD COLUMN "writes" bigint;--> statement-breakpoint
ALTER TABLE "nfs_exports" ADD COLUMN "write_bytes" bigint;