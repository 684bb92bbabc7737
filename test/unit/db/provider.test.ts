import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAdapterFactory, providerFromUrl, sqliteFilePath } from '../../../templates/runtime/db/provider.js';
import { tempDir } from '../../helpers/paths.js';

describe('providerFromUrl', () => {
  it.each([
    ['file:./data/app.db', 'sqlite'],
    ['file:/abs/app.db', 'sqlite'],
    ['postgres://u@h/db', 'postgresql'],
    ['postgresql://u:p@h:5432/db?schema=cms', 'postgresql'],
    ['mysql://root@127.0.0.1:3306/db', 'mysql'],
    ['mariadb://root@127.0.0.1/db', 'mysql'],
    ['  POSTGRESQL://u@h/db', 'postgresql'],
  ])('%s → %s', (url, provider) => {
    expect(providerFromUrl(url)).toBe(provider);
  });

  it('names the accepted schemes and hides credentials for anything else', () => {
    expect(() => providerFromUrl('sqlserver://sa:secret@h/db')).toThrow(/Unsupported database URL sqlserver:\/\/…: expected file:/);
    expect(() => providerFromUrl('sqlserver://sa:secret@h/db')).not.toThrow(/secret/);
    expect(() => providerFromUrl('')).toThrow(/Unsupported database URL ""/);
  });
});

describe('sqliteFilePath', () => {
  it('resolves relative paths against the working directory and drops query parameters', () => {
    expect(sqliteFilePath('file:./data/app.db?connection_limit=1', '/srv/app')).toBe('/srv/app/data/app.db');
    expect(sqliteFilePath('file:/var/db/app.db', '/srv/app')).toBe('/var/db/app.db');
    expect(sqliteFilePath('file::memory:')).toBe(':memory:');
  });
});

describe('createAdapterFactory', () => {
  it('gives each provider its adapter', async () => {
    expect((await createAdapterFactory('postgresql://u@127.0.0.1/db')).provider).toBe('postgres');
    expect((await createAdapterFactory('mysql://u@127.0.0.1/db')).provider).toBe('mysql');
    expect((await createAdapterFactory('file::memory:')).provider).toBe('sqlite');
  });

  it('creates the folder of a SQLite file', async () => {
    const dir = await tempDir('provider');
    const file = path.join(dir, 'a', 'b', 'app.db');
    const factory = await createAdapterFactory(`file:${file}`);
    expect(existsSync(path.dirname(file))).toBe(true);
    const adapter = await factory.connect();
    await adapter.executeScript('CREATE TABLE t (x INTEGER)');
    await adapter.dispose();
    expect(existsSync(file)).toBe(true);
    await rm(dir, { recursive: true, force: true });
  });
});
