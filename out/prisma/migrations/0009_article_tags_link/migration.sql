-- Migration written by contentgen for a model change. Review it before it is applied; until then
-- you may edit it (to backfill data, say). Once applied it must not change: it is not run again.
-- CreateIndex
CREATE INDEX "articles_tags_links_article_id_tag_order_idx" ON "articles_tags_links"("article_id", "tag_order");
