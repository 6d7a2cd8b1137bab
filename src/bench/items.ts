// Benchmark items: parsing one item and streaming an items JSONL file with line numbers. A bad line becomes
// an issue on its record, never a crash, so a whole file can be checked in one pass.

import type { Issue } from '../harness/issues.js';
import { fromZodIssues } from '../harness/parse-harness.js';
import { readJsonl } from '../trajectory/read-jsonl.js';
import { type BenchItem, BenchItemSchema } from './schema.js';

/** One line of an items file: the parsed item, or the issues that kept it from parsing. */
export type BenchItemRecord = { line: number; item: BenchItem } | { line: number; issues: Issue[] };

/**
 * Parses one benchmark item (defaults applied), or reports every issue with its JSON path.
 *
 * @example
 * const result = parseBenchItem(JSON.parse(line));
 * if ('item' in result) use(result.item);
 */
export function parseBenchItem(input: unknown): { item: BenchItem } | { issues: Issue[] } {
  const parsed = BenchItemSchema.safeParse(input);
  if (!parsed.success) return { issues: fromZodIssues(parsed.error.issues) };
  return { item: parsed.data };
}

/**
 * Streams the items of a JSONL file with their 1-based line numbers; syntax errors, forbidden keys and
 * schema violations are records with issues.
 *
 * @example
 * for await (const record of readBenchItems('fixtures/livestream/bench/items.jsonl'))
 *   if ('item' in record) console.log(record.item.id);
 */
export async function* readBenchItems(file: string): AsyncGenerator<BenchItemRecord> {
  for await (const record of readJsonl(file)) {
    if ('issue' in record) {
      yield { line: record.line, issues: [record.issue] };
      continue;
    }
    const result = parseBenchItem(record.value);
    if ('item' in result) yield { line: record.line, item: result.item };
    else
      yield {
        line: record.line,
        issues: result.issues.map((issue) => ({ ...issue, line: record.line, file })),
      };
  }
}
