/**
 * Loads the server folder's `.env` into `process.env` before anything reads it, as Strapi did
 * (dotenv): a variable already set in the environment wins over the file, and `ENV_PATH` names
 * another file. The entry points import this module first, so `src/config.ts` sees the values.
 */
import { existsSync } from 'node:fs';
import { loadEnvFile } from 'node:process';
import { fileURLToPath } from 'node:url';

/** `<server>/.env`: this file is `src/runtime/dotenv.ts`, compiled to `dist/runtime/dotenv.js`. */
const file = process.env.ENV_PATH || fileURLToPath(new URL('../../.env', import.meta.url));
if (existsSync(file)) loadEnvFile(file);
else if (process.env.ENV_PATH) throw new Error(`ENV_PATH names ${file}, which does not exist`);
