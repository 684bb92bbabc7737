-- Migration written by contentgen for a model change. Review it before it is applied; until then
-- you may edit it (to backfill data, say). Once applied it must not change: it is not run again.
-- CreateTable
CREATE TABLE "contentgen_webhook_deliveries" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "webhook" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "entry_key" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" BIGINT NOT NULL,
    "locked_until" BIGINT,
    "lease_token" TEXT,
    "last_status" INTEGER,
    "last_error" TEXT,
    "created_at" BIGINT NOT NULL,
    "delivered_at" BIGINT
);

-- CreateIndex
CREATE INDEX "contentgen_webhook_deliveries_status_next_attempt_at_idx" ON "contentgen_webhook_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "contentgen_webhook_deliveries_webhook_entry_key_status_idx" ON "contentgen_webhook_deliveries"("webhook", "entry_key", "status");

-- CreateIndex
CREATE INDEX "contentgen_webhook_deliveries_lease_token_idx" ON "contentgen_webhook_deliveries"("lease_token");
