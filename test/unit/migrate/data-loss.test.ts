import { describe, expect, it } from 'vitest';
import { describe as describeChange, findDataLoss, type DataLossChange } from '../../../generator/migrate/data-loss.js';
import { articleSchema } from '../db/databases.js';

const base = articleSchema('sqlite', ['summary     String?   @db.Text']);
const withAuthor = (articleFields: string[] = [], authorFields: string[] = []) =>
  articleSchema(
    'postgresql',
    ['authorId    Int?      @map("author_id")', 'author      Author?   @relation(fields: [authorId], references: [id])', ...articleFields],
    `
/// Author (api::author.author)
model Author {
  id       Int       @id @default(autoincrement())
  name     String?   // a comment with "quotes" and @attributes
  articles Article[]
${authorFields.map((f) => `  ${f}`).join('\n')}

  @@map("authors")
}
`,
  );

function only(changes: DataLossChange[]): DataLossChange {
  expect(changes).toHaveLength(1);
  return changes[0]!;
}

describe('findDataLoss', () => {
  it('finds a dropped table, named by table and model', () => {
    const change = only(findDataLoss(withAuthor(), articleSchema('postgresql', ['authorId    Int?      @map("author_id")'])));
    expect(change).toEqual({ kind: 'dropTable', model: 'Author', table: 'authors' });
    expect(describeChange(change)).toBe('drops table "authors" (model Author)');
  });

  it('finds a dropped column', () => {
    const change = only(findDataLoss(base, articleSchema('sqlite')));
    expect(change).toEqual({ kind: 'dropColumn', model: 'Article', field: 'summary', table: 'articles', column: 'summary' });
    expect(describeChange(change)).toBe('drops column "summary" of table "articles" (model Article)');
  });

  it('finds a changed type, including a native type', () => {
    const retyped = only(findDataLoss(base, base.replace('views       BigInt?', 'views       Int?')));
    expect(retyped).toMatchObject({ kind: 'retypeColumn', field: 'views', column: 'views', from: 'BigInt', to: 'Int' });
    expect(describeChange(retyped)).toBe('changes the type of column "views" of table "articles" (model Article) from BigInt to Int');
    const native = only(findDataLoss(base, base.replace('String?   @db.Text', 'String?   @db.VarChar(255)')));
    expect(native).toMatchObject({ kind: 'retypeColumn', from: 'String @db.Text', to: 'String @db.VarChar(255)' });
  });

  it('finds an optional column made required', () => {
    const change = only(findDataLoss(base, base.replace('summary     String?', 'summary     String ')));
    expect(change).toEqual({ kind: 'requireColumn', model: 'Article', field: 'summary', table: 'articles', column: 'summary' });
    expect(describeChange(change)).toMatch(/^makes column "summary" of table "articles" \(model Article\) required/);
  });

  it('does not count an added optional field, a required one made optional, or a new model', () => {
    expect(findDataLoss(base, articleSchema('sqlite', ['summary     String?   @db.Text', 'slug        String?']))).toEqual([]);
    expect(findDataLoss(base, base.replace('title       String', 'title       String?'))).toEqual([]);
    expect(findDataLoss(articleSchema('postgresql', ['authorId    Int?      @map("author_id")']), withAuthor())).toEqual([]);
  });

  it('follows @map and @@map: database names decide', () => {
    // Renaming a field while keeping its column, or a model while keeping its table, loses nothing.
    expect(findDataLoss(base, base.replace('publishedAt DateTime?', 'releasedAt  DateTime?'))).toEqual([]);
    expect(findDataLoss(withAuthor(), withAuthor().replace('model Author', 'model Writer').replace(/Author\?/, 'Writer?'))).toEqual([]);
    // Changing a column name drops the old column.
    expect(only(findDataLoss(base, base.replace('@map("created_at")', '@map("created")')))).toMatchObject({
      kind: 'dropColumn',
      field: 'createdAt',
      column: 'created_at',
    });
  });

  it('ignores relation fields (no column) but sees their foreign key columns', () => {
    const withoutRelation = withAuthor().replace('  author      Author?   @relation(fields: [authorId], references: [id])\n', '').replace('  articles Article[]\n', '');
    expect(findDataLoss(withAuthor(), withoutRelation)).toEqual([]);
    const withoutForeignKey = withoutRelation.replace('  authorId    Int?      @map("author_id")\n', '');
    expect(only(findDataLoss(withAuthor(), withoutForeignKey))).toMatchObject({ kind: 'dropColumn', column: 'author_id' });
  });

  it('treats a removed enum value as a type change and an added one as safe', () => {
    const schema = (values: string[]) =>
      articleSchema('postgresql', ['status      Status?'], `\nenum Status {\n${values.map((v) => `  ${v}`).join('\n')}\n}\n`);
    expect(findDataLoss(schema(['draft', 'published']), schema(['draft', 'published', 'archived']))).toEqual([]);
    expect(only(findDataLoss(schema(['draft', 'published']), schema(['draft'])))).toMatchObject({
      kind: 'retypeColumn',
      column: 'status',
      from: 'Status (draft | published)',
      to: 'Status (draft)',
    });
  });

  it('reports several changes at once', () => {
    const changes = findDataLoss(withAuthor(['rank        Int?']), articleSchema('postgresql', ['authorId    BigInt    @map("author_id")']));
    expect(changes.map((c) => `${c.kind} ${c.table}.${c.column ?? ''}`).sort()).toEqual([
      'dropColumn articles.rank',
      'dropTable authors.',
      'retypeColumn articles.author_id',
    ]);
  });
});
