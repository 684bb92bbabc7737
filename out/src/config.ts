// Created once by contentgen; this file is yours to edit and is never overwritten.
/**
 * Server settings. Environment variables win over these: PORT, HOST, DATABASE_URL.
 */
import type { UserConfig } from './runtime/config.js';

export default {
  api: {
    rest: {
      prefix: '/api',
      // Page size when the request gives none (Strapi's api.rest.defaultLimit).
      defaultLimit: 25,
      // Largest page size or limit a request may ask for (api.rest.maxLimit).
      maxLimit: 100,
      // Whether list responses include total and pageCount by default (api.rest.withCount).
      withCount: true,
    },
  },
} satisfies UserConfig;
