/**
 * The string literals of the server's src/config.ts (the user's), comments left out: how a
 * build learns that the config selects an upload provider it must include (`provider:
 * 'aws-s3'`, ir/project-plugins.ts) without running the file, which reads the environment.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ts } from 'ts-morph';

export const userConfigFile = 'src/config.ts';

/** Every string literal of `<outDir>/src/config.ts` (none when there is no such file yet). */
export async function configStrings(outDir: string): Promise<ReadonlySet<string>> {
  const text = await readFile(path.join(outDir, userConfigFile), 'utf8').catch(() => undefined);
  const strings = new Set<string>();
  if (text === undefined) return strings;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, /* skipTrivia */ true, ts.LanguageVariant.Standard, text);
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.StringLiteral || token === ts.SyntaxKind.NoSubstitutionTemplateLiteral) strings.add(scanner.getTokenValue());
  }
  return strings;
}
