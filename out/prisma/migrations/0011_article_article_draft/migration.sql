-- Migration written by contentgen for a model change. Review it before it is applied; until then
-- you may edit it (to backfill data, say). Once applied it must not change: it is not run again.
-- CreateTable
CREATE TABLE "articles_drafts" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "live_id" INTEGER NOT NULL,
    "title" TEXT,
    "slug" TEXT,
    "description" TEXT,
    "content" TEXT,
    "status" TEXT,
    "views" INTEGER,
    "rating" REAL,
    "price" DECIMAL,
    "impressions" BIGINT,
    "featured" BOOLEAN,
    "publish_date" DATETIME,
    "reading_time" DATETIME,
    "last_reviewed_at" DATETIME,
    "metadata" JSONB,
    "editor_note" TEXT,
    "seo" JSONB,
    "links" JSONB,
    "blocks" JSONB,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL,
    "published_at" DATETIME,
    CONSTRAINT "articles_drafts_live_id_fkey" FOREIGN KEY ("live_id") REFERENCES "articles" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "articles_drafts_live_id_key" ON "articles_drafts"("live_id");
