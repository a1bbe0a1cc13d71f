ALTER TABLE "datastore_documents" DROP COLUMN "search";--> statement-breakpoint
ALTER TABLE "datastore_documents" ALTER COLUMN "document" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "datastore_documents" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (jsonb_to_tsvector('simple'::regconfig, document::jsonb, '["string", "numeric"]'::jsonb)) STORED;--> statement-breakpoint
CREATE INDEX "datastore_documents_search_idx" ON "datastore_documents" USING gin ("search");--> statement-breakpoint
ALTER TABLE "datastore_documents" ADD COLUMN "source" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "sources" jsonb DEFAULT '[]'::jsonb NOT NULL;
