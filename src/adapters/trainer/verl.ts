// The `verl` exporter: a parquet file for veRL's multi-turn SFT trainer (MultiTurnSFTDataset) and the
// small Python dataset class that decodes its JSON-text columns. Rows are buffered one row group at a
// time and written as each group fills, so memory holds one row group, not the whole file.
import { join } from 'node:path';
import { z } from 'zod';
import { makeFolder, openAtomicPath, writeFileAtomic } from '../../harness/write-file-atomic.js';
import { version } from '../../version.js';
import { checkDeclaredFamilies, parseExporterOptions } from './exporter-options.js';
import { type ExportShape, exportReadme, templatesFor } from './families.js';
import { createRejectLog, sinkState } from './jsonl-sink.js';
import type { ExportSink, ExportSummary, TrainerExporter } from './spec.js';
import { safeToVerlRow, type VerlRow, type VerlRowOptions } from './to-verl-row.js';
import { verlDatasetClassSource } from './verl-dataset-class.js';
import { verlColumns, verlParquetSchema } from './verl-schema.js';

export const VerlExportOptionsSchema = z.strictObject({
  enableThinking: z.boolean().optional(),
  toolNames: z.boolean().optional(),
  parallelCalls: z.enum(['keep', 'split']).optional(),
  fileName: z.string().min(1).optional(),
  rowGroupSize: z.int().min(1).optional(),
  datasetClass: z.boolean().optional(),
  datasetClassFileName: z.string().min(1).optional(),
  families: z.array(z.string().min(1)).optional(),
});

/**
 * Options of `verlExporter` (a `verl` entry of a pipeline config's `exports`): the row options, the parquet
 * file's name and row group size, and the Python dataset class written beside it.
 */
export interface VerlExportOptions extends VerlRowOptions {
  /** Name of the parquet file in the output folder (default `train.parquet`). */
  fileName?: string;
  /** Rows per parquet row group, and so the most rows held in memory at once (default 1000). */
  rowGroupSize?: number;
  /** Also write the Python dataset class that decodes the JSON-text columns (default true). */
  datasetClass?: boolean;
  /** Name of that Python file (default `hsa_verl_dataset.py`). */
  datasetClassFileName?: string;
  /**
   * The chat templates the rows are for (TRL's template names): one the rows cannot carry tool calls to
   * is refused at `open` (a usage error); the README lists them, or every fitting one.
   */
  families?: readonly string[];
}

/**
 * How veRL hands these rows to the tokenizer's chat template, through the exported dataset class:
 * arguments decoded to mappings, null fields (a call-only message's `content`) dropped.
 *
 * @example
 * verlExportShape({}).parallelCalls // 'split'
 */
export function verlExportShape(options: VerlRowOptions): ExportShape {
  return {
    argumentsEncoding: 'object',
    parallelCalls: options.parallelCalls ?? 'split',
    toolCallContent: 'omit',
    toolCallText: 'none',
    callIds: 'keep',
  };
}

/**
 * Writes veRL multi-turn SFT parquet: columns `id`, `messages`, `tools` (and `enable_thinking` when set).
 *
 * @example
 * const sink = await verlExporter.open('out/verl');
 * await sink.write(example);
 * (await sink.close()).files // ['out/verl/train.parquet', 'out/verl/hsa_verl_dataset.py', 'out/verl/README.md']
 */
export const verlExporter: TrainerExporter<VerlExportOptions> = {
  format: 'verl',
  describe: 'veRL multi-turn SFT parquet (messages, tools, id) and the dataset class that decodes it',
  checkOptions(options) {
    const parsed = parseExporterOptions('verl', VerlExportOptionsSchema, options);
    checkDeclaredFamilies('verl', parsed.families, verlExportShape(parsed));
  },
  async open(outDir, options) {
    const parsed = parseExporterOptions('verl', VerlExportOptionsSchema, options);
    checkDeclaredFamilies('verl', parsed.families, verlExportShape(parsed));
    return openVerlSink(outDir, parsed);
  },
};

async function openVerlSink(outDir: string, options: VerlExportOptions): Promise<ExportSink> {
  const enableThinking = options.enableThinking !== undefined;
  const file = join(outDir, options.fileName ?? 'train.parquet');
  const rowGroupSize = options.rowGroupSize ?? 1000;
  await makeFolder(outDir);
  const output = await openAtomicPath(file);
  // Imported here, not at the top: hyparquet-writer is ESM only, and `require('harness-augment/adapters')`
  // must work on Node versions without require(esm) (before 20.19) for every other adapter.
  const { fileWriter, ParquetWriter } = await import('hyparquet-writer');
  const writer = new ParquetWriter({
    writer: fileWriter(output.path),
    schema: verlParquetSchema({ enableThinking }),
    createdBy: `harness-augment ${version}`,
  });
  const columns = verlColumns({ enableThinking });
  const rejects = createRejectLog();
  const state = sinkState('verl');
  let buffered: VerlRow[] = [];
  let rows = 0;

  const flush = async () => {
    if (buffered.length === 0) return;
    const group = buffered;
    buffered = [];
    const columnData = columns.map((name) => ({
      name,
      data: group.map((row) => (row as unknown as Record<string, unknown>)[name]),
    }));
    await writer.write({ columnData, rowGroupSize: group.length });
  };

  return {
    async write(example) {
      state.assertOpen('write');
      const converted = safeToVerlRow(example, options);
      if (!converted.success) {
        rejects.add(example, converted.issues);
        return;
      }
      rows += 1;
      buffered.push(converted.data);
      if (buffered.length >= rowGroupSize) await flush();
    },
    async close(): Promise<ExportSummary> {
      state.finish();
      try {
        await flush();
        await writer.finish();
        await output.commit();
      } catch (error) {
        await output.abort();
        throw error;
      }
      const files = [file];
      if (options.datasetClass !== false) {
        const classFile = join(outDir, options.datasetClassFileName ?? 'hsa_verl_dataset.py');
        await writeFileAtomic(classFile, verlDatasetClassSource());
        files.push(classFile);
      }
      const shape = verlExportShape(options);
      const readme = join(outDir, 'README.md');
      await writeFileAtomic(
        readme,
        exportReadme({
          format: 'verl',
          describe: `${verlExporter.describe}; veRL renders each row with the tokenizer's chat template`,
          shape,
          ...(options.families ? { declared: options.families } : {}),
        }),
      );
      files.push(readme);
      return {
        format: 'verl',
        files,
        rows,
        rejected: rejects.list.length,
        rejects: rejects.list,
        templates: [...(options.families ?? templatesFor(shape))],
      };
    },
    async abort() {
      if (state.finishQuietly()) await output.abort();
    },
  };
}
