// The JSONL sink shared by the JSON-lines formats: one row per example in the order received, rejects
// collected with their issues, companion files (configs) written atomically after the data file. Also the
// exporter for formats that are that one data file and nothing else.
import { join } from 'node:path';
import type { z } from 'zod';
import { formatIssue, HarnessAugmentError, type SafeResult } from '../../harness/issues.js';
import { jsonLine } from '../../harness/json-lines.js';
import { openAtomicFile, writeFileAtomic } from '../../harness/write-file-atomic.js';
import { rejectId } from './export-messages.js';
import { parseExporterOptions } from './exporter-options.js';
import type { ExportReject, ExportSink, ExportSummary, TrainerExporter, TrainingExample } from './spec.js';

/** A file written next to the data file when the sink closes, such as `dataset_info.json`. */
export interface CompanionFile {
  file: string;
  content: string;
}

export interface JsonlSinkOptions<Row> {
  format: string;
  /** The JSONL data file. */
  file: string;
  convert(example: TrainingExample): SafeResult<Row>;
  /**
   * The lines one converted example is written as (default: the row itself). `rows` in the summary still
   * counts examples, so `rows + rejected` is the number of examples written.
   */
  lines?(row: Row): readonly unknown[];
  /** Companion files, built once the rows are known. */
  companions?(): CompanionFile[] | Promise<CompanionFile[]>;
  /** The chat templates the rows are for (see `ExportSummary.templates`). */
  templates?: readonly string[];
}

/**
 * Collects rejects the same way for every sink: the first issue becomes the one-line reason.
 *
 * @example
 * const rejects = createRejectLog(); rejects.add(example, issues); rejects.list.length // 1
 */
export function createRejectLog() {
  const list: ExportReject[] = [];
  return {
    list,
    add(example: unknown, issues: ExportReject['issues']) {
      const first = issues[0];
      list.push({ id: rejectId(example), reason: first ? formatIssue(first) : 'rejected', issues });
    },
  };
}

/**
 * Guards a sink against use after `close` or `abort`: that is a programming error, so it throws.
 *
 * @example
 * const state = sinkState('trl'); state.assertOpen('write'); state.finish(); state.finishQuietly() // false
 */
export function sinkState(format: string) {
  let finished = false;
  const assertOpen = (action: string) => {
    if (finished) {
      throw new HarnessAugmentError(`${format} export: ${action} after the sink was closed`, {
        kind: 'usage',
      });
    }
  };
  return {
    assertOpen,
    /** Marks the sink closed; throws when it already was. */
    finish() {
      assertOpen('close');
      finished = true;
    },
    /** Marks the sink closed; false when it already was (abort is then a no-op). */
    finishQuietly(): boolean {
      if (finished) return false;
      finished = true;
      return true;
    },
  };
}

/**
 * Opens a JSONL export: each example is converted and written as one line, or rejected with its issues.
 *
 * @example
 * const sink = await openJsonlSink({ format: 'openai', file: 'out/train.jsonl', convert: safeToOpenAIRow });
 */
export async function openJsonlSink<Row>(options: JsonlSinkOptions<Row>): Promise<ExportSink> {
  const out = await openAtomicFile(options.file);
  const rejects = createRejectLog();
  const state = sinkState(options.format);
  let rows = 0;
  return {
    async write(example) {
      state.assertOpen('write');
      const converted = options.convert(example);
      if (!converted.success) {
        rejects.add(example, converted.issues);
        return;
      }
      rows += 1;
      for (const line of options.lines ? options.lines(converted.data) : [converted.data])
        await out.write(jsonLine(line));
    },
    async close(): Promise<ExportSummary> {
      state.finish();
      try {
        await out.commit();
      } catch (error) {
        await out.abort();
        throw error;
      }
      const companions = options.companions ? await options.companions() : [];
      for (const companion of companions) await writeFileAtomic(companion.file, companion.content);
      return {
        format: options.format,
        files: [options.file, ...companions.map((companion) => companion.file)],
        rows,
        rejected: rejects.list.length,
        rejects: rejects.list,
        ...(options.templates ? { templates: [...options.templates] } : {}),
      };
    },
    async abort() {
      if (state.finishQuietly()) await out.abort();
    },
  };
}

/** What sets one data-file JSONL format apart from another. */
export interface JsonlExporterSpec<Schema extends z.ZodType<{ fileName?: string | undefined }>, Row> {
  format: string;
  describe: string;
  /** The exporter's options; `fileName` names the data file. */
  options: Schema;
  /** The data file's name when the options give none. */
  fileName: string;
  toRow(example: TrainingExample, options: z.output<Schema>): SafeResult<Row>;
  /** When one example becomes several lines: the lines of a converted row (see `JsonlSinkOptions.lines`). */
  lines?(row: Row): readonly unknown[];
  /** Checks options beyond their schema (throws a usage error), before anything is written. */
  check?(options: z.output<Schema>): void;
  /** The chat templates the rows are for, given the options (written into the summary and the README). */
  templates?(options: z.output<Schema>): readonly string[];
  /** Companion files (a README), given the options and the output folder. */
  companions?(options: z.output<Schema>, outDir: string): CompanionFile[];
}

/**
 * An exporter that writes one JSONL data file: options parsed (a bad one throws a usage error), then
 * every example converted by `toRow` into `<outDir>/<fileName>`.
 *
 * @example
 * const exporter = jsonlExporter({
 *   format: 'trl',
 *   describe: 'TRL SFTTrainer conversational JSONL',
 *   options: TrlExportOptionsSchema,
 *   fileName: 'train.jsonl',
 *   toRow: safeToTrlRow,
 * });
 * const sink = await exporter.open('out/trl'); // writes out/trl/train.jsonl
 */
export function jsonlExporter<Options, Schema extends z.ZodType<{ fileName?: string | undefined }>, Row>(
  spec: JsonlExporterSpec<Schema, Row>,
): TrainerExporter<Options> {
  return {
    format: spec.format,
    describe: spec.describe,
    checkOptions(options) {
      spec.check?.(parseExporterOptions(spec.format, spec.options, options));
    },
    async open(outDir, options) {
      const parsed = parseExporterOptions(spec.format, spec.options, options);
      spec.check?.(parsed);
      const companions = spec.companions;
      return openJsonlSink({
        format: spec.format,
        file: join(outDir, parsed.fileName ?? spec.fileName),
        convert: (example) => spec.toRow(example, parsed),
        ...(spec.lines ? { lines: spec.lines } : {}),
        ...(companions ? { companions: () => companions(parsed, outDir) } : {}),
        ...(spec.templates ? { templates: spec.templates(parsed) } : {}),
      });
    },
  };
}
