-- Migration written by contentgen for a model change. Review it before it is applied; until then
-- you may edit it (to backfill data, say). Once applied it must not change: it is not run again.
-- CreateTable
CREATE TABLE "articles_drafts_lnk" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "live_id" INTEGER NOT NULL,
    "field" TEXT NOT NULL,
    "target_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    CONSTRAINT "articles_drafts_lnk_live_id_fkey" FOREIGN KEY ("live_id") REFERENCES "articles_drafts" ("live_id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "articles_drafts_lnk_live_id_field_idx" ON "articles_drafts_lnk"("live_id", "field");
