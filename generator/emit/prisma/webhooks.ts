/**
 * The webhook outbox (templates/runtime/webhooks/): one row per delivery of an event to one
 * endpoint, written in the transaction of the write that caused it, then claimed, sent,
 * retried and marked by the dispatcher of whichever server process gets it first. Every
 * server has it, webhooks configured or not, so configuring one needs no migration.
 */
import type { Schema } from '../../ir/types.js';
import type { PrismaModel } from './schema.js';

export const webhookDeliveriesTable = 'contentgen_webhook_deliveries';

export function webhookOutboxModels(ir: Schema): PrismaModel[] {
  const mysql = ir.provider === 'mysql';
  const short = (size: number) => (mysql ? ` @db.VarChar(${size})` : '');
  const long = mysql ? ' @db.LongText' : '';
  return [
    {
      comment: 'Webhook deliveries: one per event and endpoint, written with the write that caused it (the outbox); times in epoch milliseconds',
      name: 'ContentgenWebhookDelivery',
      table: webhookDeliveriesTable,
      fields: [
        ['id', 'Int', '@id @default(autoincrement())'],
        ['webhook', 'String', short(255).trim()],
        ['event', 'String', short(64).trim()],
        ['entryKey', 'String', `@map("entry_key")${short(255)}`],
        ['payload', 'String', long.trim()],
        ['status', 'String', `@default("pending")${short(16)}`],
        ['attempts', 'Int', '@default(0)'],
        ['nextAttemptAt', 'BigInt', '@map("next_attempt_at")'],
        ['lockedUntil', 'BigInt?', '@map("locked_until")'],
        ['leaseToken', 'String?', `@map("lease_token")${short(64)}`],
        ['lastStatus', 'Int?', '@map("last_status")'],
        ['lastError', 'String?', `@map("last_error")${long}`],
        ['createdAt', 'BigInt', '@map("created_at")'],
        ['deliveredAt', 'BigInt?', '@map("delivered_at")'],
      ],
      blockAttributes: ['@@index([status, nextAttemptAt])', '@@index([webhook, entryKey, status])', '@@index([leaseToken])'],
    },
  ];
}
