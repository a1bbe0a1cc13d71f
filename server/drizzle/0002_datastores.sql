ALTER TABLE "datastore_documents" ADD COLUMN "sync_lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "datastore_documents" ADD COLUMN "sync_error" text;--> statement-breakpoint
ALTER TABLE "datastore_documents" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (jsonb_to_tsvector('simple'::regconfig, document, '["string", "numeric"]'::jsonb)) STORED;--> statement-breakpoint
ALTER TABLE "datastores" ADD COLUMN "embedding_vendor_model_id" integer;--> statement-breakpoint
ALTER TABLE "datastores" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "datastores" ADD CONSTRAINT "datastores_embedding_vendor_model_id_vendor_models_id_fk" FOREIGN KEY ("embedding_vendor_model_id") REFERENCES "public"."vendor_models"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "datastore_documents_pending_idx" ON "datastore_documents" USING btree ("datastore_id","id") WHERE requires_sync;--> statement-breakpoint
CREATE INDEX "datastore_documents_search_idx" ON "datastore_documents" USING gin ("search");