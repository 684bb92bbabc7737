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

-- api::article.article.author: the pending drafts keep their live links
INSERT INTO "articles_drafts_lnk" ("live_id", "field", "target_id", "position") SELECT l."article_id", 'author', l."author_id", ROW_NUMBER() OVER (PARTITION BY l."article_id" ORDER BY l."author_order", l."id") FROM "articles_author_links" AS l WHERE l."article_id" IN (SELECT d."live_id" FROM "articles_drafts" AS d);

-- api::article.article.category: the pending drafts keep their live links
INSERT INTO "articles_drafts_lnk" ("live_id", "field", "target_id", "position") SELECT l."article_id", 'category', l."category_id", ROW_NUMBER() OVER (PARTITION BY l."article_id" ORDER BY l."category_order", l."id") FROM "articles_category_links" AS l WHERE l."article_id" IN (SELECT d."live_id" FROM "articles_drafts" AS d);

-- api::article.article.tags: the pending drafts keep their live links
INSERT INTO "articles_drafts_lnk" ("live_id", "field", "target_id", "position") SELECT l."article_id", 'tags', l."tag_id", ROW_NUMBER() OVER (PARTITION BY l."article_id" ORDER BY l."tag_order", l."id") FROM "articles_tags_links" AS l WHERE l."article_id" IN (SELECT d."live_id" FROM "articles_drafts" AS d);

-- api::article.article.cover: the pending drafts keep their live links
INSERT INTO "articles_drafts_lnk" ("live_id", "field", "target_id", "position") SELECT l."article_id", 'cover', l."file_id", ROW_NUMBER() OVER (PARTITION BY l."article_id" ORDER BY l."file_order", l."id") FROM "articles_cover_links" AS l WHERE l."article_id" IN (SELECT d."live_id" FROM "articles_drafts" AS d);
