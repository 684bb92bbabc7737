-- Migration written by contentgen for a model change. Review it before it is applied; until then
-- you may edit it (to backfill data, say). Once applied it must not change: it is not run again.
-- CreateIndex
CREATE INDEX "articles_published_at_idx" ON "articles"("published_at");
