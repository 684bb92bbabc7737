-- Migration written by contentgen for a model change. Review it before it is applied; until then
-- you may edit it (to backfill data, say). Once applied it must not change: it is not run again.
-- CreateTable
CREATE TABLE "contentgen_component_ids" (
    "component" TEXT NOT NULL PRIMARY KEY,
    "last_id" BIGINT NOT NULL
);
