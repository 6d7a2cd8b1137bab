// The `llama-factory` exporter: sharegpt JSONL plus the `dataset_info.json` entry that registers it, so
// the output folder can be passed as `dataset_dir` and the entry's name as `dataset` to llamafactory-cli.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { HarnessAugmentError } from '../../harness/issues.js';
import { parseExporterOptions } from './exporter-options.js';
import { exportReadme } from './families.js';
import { openJsonlSink } from './jsonl-sink.js';
import type { TrainerExporter } from './spec.js';
import { type SharegptRowOptions, safeToSharegptRow } from './to-sharegpt-row.js';

export const LlamaFactoryExportOptionsSchema = z.strictObject({
  datasetName: z.string().min(1).optional(),
  fileName: z.string().min(1).optional(),
  parallelResults: z.enum(['tool-response', 'json-array']).optional(),
});

/**
 * Options of `llamaFactoryExporter` (a `llama-factory` entry of a pipeline config's `exports`): the row
 * options, and the dataset name and file registered in `dataset_info.json`.
 */
export interface LlamaFactoryExportOptions extends SharegptRowOptions {
  /** The key in `dataset_info.json` and the `dataset:` value for training (default `hsa_train`). */
  datasetName?: string;
  /** Name of the data file in the output folder (default `<datasetName>.jsonl`). */
  fileName?: string;
}

/**
 * The `dataset_info.json` entry for a sharegpt file with function calls, tags spelled out.
 *
 * @example
 * llamaFactoryDatasetEntry('hsa_train.jsonl').formatting // 'sharegpt'
 */
export function llamaFactoryDatasetEntry(fileName: string) {
  return {
    file_name: fileName,
    formatting: 'sharegpt',
    columns: { messages: 'conversations', system: 'system', tools: 'tools' },
    tags: {
      role_tag: 'from',
      content_tag: 'value',
      user_tag: 'human',
      assistant_tag: 'gpt',
      observation_tag: 'observation',
      function_tag: 'function_call',
      system_tag: 'system',
    },
  };
}

async function readDatasetInfo(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HarnessAugmentError(`${file}: not JSON (${(error as Error).message}); fix or remove it`, {
      kind: 'usage',
    });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HarnessAugmentError(`${file}: expected an object of dataset entries`, { kind: 'usage' });
  }
  return value as Record<string, unknown>;
}

/**
 * Adds or replaces one entry in an existing `dataset_info.json`, keeping every other entry and its place.
 *
 * @example
 * mergeDatasetInfo({ alpaca_en_demo: {…} }, 'hsa_train', entry) // both entries, alpaca first
 */
export function mergeDatasetInfo(
  existing: Record<string, unknown>,
  datasetName: string,
  entry: unknown,
): Record<string, unknown> {
  return Object.hasOwn(existing, datasetName)
    ? Object.fromEntries(
        Object.entries(existing).map(([key, value]) => [key, key === datasetName ? entry : value]),
      )
    : { ...existing, [datasetName]: entry };
}

/**
 * Writes sharegpt rows and registers them in `dataset_info.json` (merged into one already there).
 *
 * @example
 * const sink = await llamaFactoryExporter.open('out/lf', { datasetName: 'shop_sft' });
 * await sink.write(example);
 * (await sink.close()).files // ['out/lf/shop_sft.jsonl', 'out/lf/dataset_info.json', 'out/lf/README.md']
 */
export const llamaFactoryExporter: TrainerExporter<LlamaFactoryExportOptions> = {
  format: 'llama-factory',
  describe: 'LLaMA-Factory sharegpt JSONL (function_call/observation turns) and its dataset_info.json entry',
  checkOptions(options) {
    parseExporterOptions('llama-factory', LlamaFactoryExportOptionsSchema, options);
  },
  async open(outDir, options) {
    const parsed = parseExporterOptions('llama-factory', LlamaFactoryExportOptionsSchema, options);
    const datasetName = parsed.datasetName ?? 'hsa_train';
    // `file_name` in dataset_info.json is relative to the dataset folder, which is the output folder.
    const fileName = parsed.fileName ?? `${datasetName}.jsonl`;
    const file = join(outDir, fileName);
    const infoFile = join(outDir, 'dataset_info.json');
    await readDatasetInfo(infoFile); // a broken dataset_info.json fails now, before any data is written
    return openJsonlSink({
      format: 'llama-factory',
      file,
      convert: (example) => safeToSharegptRow(example, parsed),
      async companions() {
        const merged = mergeDatasetInfo(
          await readDatasetInfo(infoFile),
          datasetName,
          llamaFactoryDatasetEntry(fileName),
        );
        return [
          { file: infoFile, content: `${JSON.stringify(merged, null, 2)}\n` },
          {
            file: join(outDir, 'README.md'),
            content: exportReadme({
              format: 'llama-factory',
              describe: llamaFactoryExporter.describe,
              renderedBy:
                "LLaMA-Factory's own `template:` (its function-call and observation formatters, e.g. `qwen`, `llama3`, `mistral`)",
            }),
          },
        ];
      },
    });
  },
};
