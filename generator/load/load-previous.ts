/**
 * What the previous build left in the output folder that the next one compares with: its
 * model summary, its printed GraphQL schema and its change report (without its header). All
 * optional: a first
 * build, or one over output from an older contentgen, has some or none of them.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { changeReportPath } from '../changes/report.js';
import { modelSummaryPath, type ModelSummary } from '../changes/summary.js';
import { bannerText, withHeader } from '../write/banner.js';

export interface PreviousBuild {
  readonly summary?: ModelSummary;
  readonly sdl?: string;
  /** The change report's text without its header. */
  readonly report?: string;
}

export async function loadPreviousBuild(outDir: string, schemaFile: string): Promise<PreviousBuild> {
  const read = (file: string) => readFile(path.join(outDir, file), 'utf8').catch(() => undefined);
  const [summaryText, sdl, report] = await Promise.all([read(modelSummaryPath), read(schemaFile), read(changeReportPath)]);
  let summary: ModelSummary | undefined;
  try {
    const parsed = summaryText === undefined ? undefined : (JSON.parse(summaryText) as ModelSummary);
    if (parsed?.version === 1) summary = parsed;
  } catch {
    // An unreadable summary is no summary: the REST part of the report says it was not compared.
  }
  return {
    ...(summary ? { summary } : {}),
    ...(sdl !== undefined ? { sdl } : {}),
    ...(report !== undefined ? { report: withoutHeader(changeReportPath, report) } : {}),
  };
}

/** A generated file's text without the header every build puts on it. */
function withoutHeader(file: string, text: string): string {
  const header = withHeader(file, '', bannerText);
  return text.startsWith(header) ? text.slice(header.length) : text;
}
