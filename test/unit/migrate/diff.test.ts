import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffSchemas } from '../../../generator/migrate/diff.js';
import { offlineAdapterFactory } from '../../../generator/migrate/offline-adapter.js';
import {
  closeSchemaEngine,
  engineErrorMessage,
  openSchemaEngine,
} from '../../../templates/runtime/db/schema-engine.js';
import { articleSchema, tempMariaDb, tempPostgres, type TempDatabase } from '../db/databases.js';

const withOptional = (p: 'sqlite' | 'postgresql' | 'mysql') => articleSchema(p, ['summary     String?']);
const withRequiredUnique = (p: 'sqlite' | 'postgresql' | 'mysql') =>
  articleSchema(p, ['summary     String?', 'slug        String    @unique']);

/** Schema with a second model, a relation and native types, like a contentgen build with an author. */
const withAuthor = (p: 'sqlite' | 'postgresql' | 'mysql') =>
  articleSchema(
    p,
    ['authorId    Int?      @map("author_id")', 'author      Author?   @relation(fields: [authorId], references: [id])'],
    `
model Author {
  id       Int       @id @default(autoincrement())
  name     String
  articles Article[]

  @@map("authors")
}
`,
  );

describe('diffSchemas on SQLite (offline)', () => {
  it('creates the tables of a schema from an empty database', async () => {
    const sql = await diffSchemas({ provider: 'sqlite', from: null, to: articleSchema('sqlite') });
    expect(sql).toContain('-- CreateTable\nCREATE TABLE "articles" (');
    expect(sql).toContain('"id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT');
    expect(sql).toContain('"views" BIGINT,');
    expect(sql).toContain('"created_at" DATETIME NOT NULL');
    expect(sql).toContain('"published_at" DATETIME');
  });

  it('adds an optional column with ALTER TABLE', async () => {
    const sql = await diffSchemas({ provider: 'sqlite', from: articleSchema('sqlite'), to: withOptional('sqlite') });
    expect(sql).toBe('-- AlterTable\nALTER TABLE "articles" ADD COLUMN "summary" TEXT;\n');
  });

  it('redefines the table for a required column (SQLite cannot add one in place)', async () => {
    const sql = await diffSchemas({ provider: 'sqlite', from: articleSchema('sqlite'), to: withRequiredUnique('sqlite') });
    expect(sql).toContain('CREATE TABLE "new_articles"');
    expect(sql).toContain('"slug" TEXT NOT NULL');
    expect(sql).toContain('CREATE UNIQUE INDEX "articles_slug_key" ON "articles"("slug");');
  });

  it('gives an empty string for identical schemas', async () => {
    const schema = withAuthor('sqlite');
    expect(await diffSchemas({ provider: 'sqlite', from: schema, to: schema })).toBe('');
  });
});

describe('diffSchemas on PostgreSQL (offline)', () => {
  it('creates the tables of a schema from an empty database', async () => {
    const sql = await diffSchemas({ provider: 'postgresql', from: null, to: withAuthor('postgresql') });
    expect(sql).toContain('CREATE TABLE "articles" (');
    expect(sql).toContain('"id" SERIAL NOT NULL');
    expect(sql).toContain('"created_at" TIMESTAMP(3) NOT NULL');
    expect(sql).toContain('CONSTRAINT "articles_pkey" PRIMARY KEY ("id")');
    expect(sql).toContain(
      'ALTER TABLE "articles" ADD CONSTRAINT "articles_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "authors"("id") ON DELETE SET NULL ON UPDATE CASCADE;',
    );
  });

  it('adds columns with ALTER TABLE and a unique index with CREATE UNIQUE INDEX', async () => {
    const sql = await diffSchemas({ provider: 'postgresql', from: articleSchema('postgresql'), to: withRequiredUnique('postgresql') });
    expect(sql).toMatch(/ALTER TABLE "articles" ADD COLUMN\s+"slug" TEXT NOT NULL,\nADD COLUMN\s+"summary" TEXT;/);
    expect(sql).toContain('CREATE UNIQUE INDEX "articles_slug_key" ON "articles"("slug");');
  });

  it('drops a column', async () => {
    const sql = await diffSchemas({ provider: 'postgresql', from: withOptional('postgresql'), to: articleSchema('postgresql') });
    expect(sql).toContain('ALTER TABLE "articles" DROP COLUMN "summary";');
  });

  it('gives an empty string for identical schemas', async () => {
    const schema = withAuthor('postgresql');
    expect(await diffSchemas({ provider: 'postgresql', from: schema, to: schema })).toBe('');
  });
});

describe('diffSchemas on MySQL (contentgen differ, offline)', () => {
  it('creates the tables of a schema from an empty database', async () => {
    const sql = await diffSchemas({ provider: 'mysql', from: null, to: withAuthor('mysql') });
    expect(sql).toContain(
      [
        '-- CreateTable',
        'CREATE TABLE `articles` (',
        '    `id` INTEGER NOT NULL AUTO_INCREMENT,',
        '    `title` VARCHAR(191) NOT NULL,',
        '    `views` BIGINT NULL,',
        '    `created_at` DATETIME(3) NOT NULL,',
        '    `updated_at` DATETIME(3) NOT NULL,',
        '    `published_at` DATETIME(3) NULL,',
        '    `author_id` INTEGER NULL,',
        '',
        '    PRIMARY KEY (`id`)',
        ') DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;',
      ].join('\n'),
    );
    expect(sql).toContain(
      '-- AddForeignKey\nALTER TABLE `articles` ADD CONSTRAINT `articles_author_id_fkey` FOREIGN KEY (`author_id`) REFERENCES `authors`(`id`) ON DELETE SET NULL ON UPDATE CASCADE;',
    );
  });

  it('adds columns with ALTER TABLE and a unique index with CREATE UNIQUE INDEX', async () => {
    const sql = await diffSchemas({ provider: 'mysql', from: articleSchema('mysql'), to: withRequiredUnique('mysql') });
    expect(sql).toBe(
      '-- AlterTable\n' +
        'ALTER TABLE `articles` ADD COLUMN `summary` VARCHAR(191) NULL,\n    ADD COLUMN `slug` VARCHAR(191) NOT NULL;\n\n' +
        '-- CreateIndex\n' +
        'CREATE UNIQUE INDEX `articles_slug_key` ON `articles`(`slug`);\n',
    );
  });

  it('gives an empty string for identical schemas', async () => {
    const schema = withAuthor('mysql');
    expect(await diffSchemas({ provider: 'mysql', from: schema, to: schema })).toBe('');
  });
});

describe('diffSchemas input checks', () => {
  it("refuses a schema whose datasource is not the provider's", async () => {
    await expect(diffSchemas({ provider: 'postgresql', from: null, to: articleSchema('sqlite') })).rejects.toThrow(
      /"to" schema's datasource is "sqlite", expected "postgresql"/,
    );
  });

  it("reports Prisma's validation errors", async () => {
    const broken = articleSchema('postgresql', ['oops        NoSuchType']);
    await expect(diffSchemas({ provider: 'postgresql', from: null, to: broken })).rejects.toThrow(/NoSuchType/);
  });
});

/** What the WebAssembly engine needs from its adapter to diff two schemas. */
describe('the schema engine and its connection', () => {
  const schema = articleSchema('postgresql');

  it('connects on creation, so a factory that cannot connect fails', async () => {
    const refusing = {
      ...offlineAdapterFactory('postgres'),
      connect: async () => {
        throw new Error('no database here');
      },
    };
    await expect(openSchemaEngine(schema, refusing)).rejects.toThrow(/Could not start the schema engine: no database here/);
  });

  it('needs nothing but the version probe on PostgreSQL to diff', async () => {
    const queries: string[] = [];
    const base = offlineAdapterFactory('postgres');
    const recording = {
      ...base,
      connect: async () => {
        const adapter = await base.connect();
        const queryRaw = adapter.queryRaw.bind(adapter);
        adapter.queryRaw = (query) => {
          queries.push(query.sql);
          return queryRaw(query);
        };
        return adapter;
      },
    };
    const engine = await openSchemaEngine(schema, recording);
    try {
      const result = await engine.diff({
        from: { tag: 'empty' },
        to: { tag: 'schemaDatamodel', files: [{ path: 'schema.prisma', content: schema }] },
        script: true,
        exitCode: null,
        filters: { externalTables: [], externalEnums: [] },
      });
      expect(result.stdout).toContain('CREATE TABLE "articles"');
    } catch (error) {
      throw new Error(engineErrorMessage(engine, error));
    } finally {
      await closeSchemaEngine(engine);
    }
    expect(queries).toHaveLength(1);
    expect(queries[0]).toMatch(/FROM pg_namespace.*version\(\)/s);
  });

  it('refuses MySQL up front (the wasm engine would panic)', async () => {
    const mysqlFactory = { ...offlineAdapterFactory('sqlite'), provider: 'mysql' as const };
    await expect(openSchemaEngine(undefined, mysqlFactory)).rejects.toThrow(/does not support the "mysql" driver adapter/);
  });
});

/** The generated SQL runs on a real server, and step-by-step equals all-at-once. */
const postgres = await tempPostgres();
if (!postgres.ok) console.warn(`Skipping PostgreSQL diff checks against a server: ${postgres.reason}`);
const mariaDb = await tempMariaDb();
if (!mariaDb.ok) console.warn(`Skipping MariaDB diff checks against a server: ${mariaDb.reason}`);

describe.skipIf(!postgres.ok)('generated PostgreSQL SQL on a server', () => {
  const db = postgres.ok ? postgres.value : (undefined as unknown as TempDatabase);
  afterAll(() => db.drop());

  it('runs: empty → articles → articles with author', async () => {
    const steps = [
      await diffSchemas({ provider: 'postgresql', from: null, to: articleSchema('postgresql') }),
      await diffSchemas({ provider: 'postgresql', from: articleSchema('postgresql'), to: withAuthor('postgresql') }),
    ];
    for (const sql of steps) await db.query(sql);
    const columns = await db.query("SELECT column_name FROM information_schema.columns WHERE table_name = 'articles'");
    expect(columns.map((r) => r.column_name)).toContain('author_id');
  });
});

describe.skipIf(!mariaDb.ok)('generated MySQL SQL on MariaDB', () => {
  const direct = mariaDb.ok ? mariaDb.value : (undefined as unknown as TempDatabase);
  let stepwise: TempDatabase;
  beforeAll(async () => {
    const fresh = await tempMariaDb();
    if (!fresh.ok) throw new Error(fresh.reason);
    stepwise = fresh.value;
  });
  afterAll(async () => {
    await stepwise?.drop();
    await direct.drop();
  });

  /** Columns, indexes and foreign keys of a database, in a comparable form (column order aside). */
  async function structure(db: TempDatabase) {
    const columns = await db.query(
      `SELECT table_name, column_name, column_type, is_nullable, column_default, extra
         FROM information_schema.columns WHERE table_schema = ? ORDER BY table_name, column_name`,
      [db.name],
    );
    const indexes = await db.query(
      `SELECT table_name, index_name, non_unique, GROUP_CONCAT(column_name ORDER BY seq_in_index) AS cols
         FROM information_schema.statistics WHERE table_schema = ? GROUP BY table_name, index_name, non_unique
         ORDER BY table_name, index_name`,
      [db.name],
    );
    const foreignKeys = await db.query(
      `SELECT constraint_name, table_name, referenced_table_name, delete_rule, update_rule
         FROM information_schema.referential_constraints WHERE constraint_schema = ? ORDER BY constraint_name`,
      [db.name],
    );
    return { columns, indexes, foreignKeys };
  }

  it('builds the same tables step by step as all at once', async () => {
    const target = mysqlKitchenSink();
    const versions = [articleSchema('mysql'), withAuthor('mysql'), target];
    let previous: string | null = null;
    for (const version of versions) {
      const sql = await diffSchemas({ provider: 'mysql', from: previous, to: version });
      if (sql !== '') await stepwise.query(sql);
      previous = version;
    }
    await direct.query(await diffSchemas({ provider: 'mysql', from: null, to: target }));
    expect(await structure(stepwise)).toEqual(await structure(direct));
    expect(await diffSchemas({ provider: 'mysql', from: target, to: target })).toBe('');
  });

  it('drops and retypes back down to the first schema', async () => {
    const sql = await diffSchemas({ provider: 'mysql', from: mysqlKitchenSink(), to: articleSchema('mysql') });
    await stepwise.query(sql);
    const fresh = await tempMariaDb();
    if (!fresh.ok) throw new Error(fresh.reason);
    try {
      await fresh.value.query(await diffSchemas({ provider: 'mysql', from: null, to: articleSchema('mysql') }));
      expect(await structure(stepwise)).toEqual(await structure(fresh.value));
    } finally {
      await fresh.value.drop();
    }
  });
});

/** Every construct the MySQL differ handles: enums, native types, defaults, keys, relations. */
function mysqlKitchenSink(): string {
  return articleSchema(
    'mysql',
    [
      'title2      String    @db.VarChar(255) @map("title_2")',
      'body        String?   @db.LongText',
      'price       Decimal?  @db.Decimal(65, 30)',
      'day         DateTime? @db.Date',
      'at          DateTime? @db.Time(3)',
      'flag        Boolean   @default(false)',
      'rating      Float     @default(1.5)',
      'meta        Json?',
      'status      Status    @default(Draft)',
      'note        String    @default("it\'s")',
      'stamp       DateTime  @default(now())',
      'authorId    Int       @map("author_id")',
      'author      Author    @relation(fields: [authorId], references: [id], onDelete: Cascade)',
      'editorId    Int?      @map("editor_id")',
      'editor      Author?   @relation("edits", fields: [editorId], references: [id])',
      '@@unique([title2, authorId])',
      '@@index([day])',
    ],
    `
enum Status {
  Draft     @map("draft")
  Published @map("published")
}

model Author {
  id       Int       @id @default(autoincrement())
  name     String    @unique
  articles Article[]
  edits    Article[] @relation("edits")

  @@map("authors")
}

model ArticleTag {
  articleId Int @map("article_id")
  tagId     Int @map("tag_id")
  order     Float?

  @@id([articleId, tagId])
  @@index([tagId])
  @@map("articles_tags_links")
}
`,
  );
}
