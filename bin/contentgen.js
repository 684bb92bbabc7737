#!/usr/bin/env node
// The generator is TypeScript run through tsx: no build step between editing and running.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../generator/cli.ts');
process.exitCode = await main(process.argv.slice(2));
