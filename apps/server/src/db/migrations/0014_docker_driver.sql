CREATE TABLE "docker_gpu_claims" (
	"host_id" varchar(32) NOT NULL,
	"gpu_index" integer NOT NULL,
	"instance_id" varchar(32) NOT NULL,
	CONSTRAINT "docker_gpu_claims_host_id_gpu_index_pk" PRIMARY KEY("host_id","gpu_index")
);
--> statement-breakpoint
CREATE TABLE "docker_machines" (
	"instance_id" varchar(32) PRIMARY KEY NOT NULL,
	"host_id" varchar(32) NOT NULL,
	"ssh_port" integer NOT NULL,
	"system_image" varchar(255) NOT NULL,
	"image_id" varchar(96) NOT NULL,
	"data_disk_gb" integer NOT NULL,
	"desired" varchar(16) NOT NULL,
	"reinstalled_for" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "public_images" ADD COLUMN "image_ref" varchar(255);--> statement-breakpoint
ALTER TABLE "hosts" ADD COLUMN "docker_url" varchar(255);--> statement-breakpoint
ALTER TABLE "hosts" ADD COLUMN "docker_tls_sealed" text;--> statement-breakpoint
ALTER TABLE "hosts" ADD COLUMN "public_address" varchar(255);--> statement-breakpoint
CREATE INDEX "docker_gpu_claims_instance_idx" ON "docker_gpu_claims" USING btree ("instance_id");--> statement-breakpoint
CREATE UNIQUE INDEX "docker_machines_host_port_key" ON "docker_machines" USING btree ("host_id","ssh_port");