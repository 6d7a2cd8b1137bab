// The `trl` exporter: a JSONL file that TRL's SFTTrainer (and `trl sft`) loads with `datasets` unchanged.
import { join } from 'node:path';
import { z } from 'zod';
import { checkDeclaredFamilies } from './exporter-options.js';
import { type ExportShape, exportReadme, templatesFor } from './families.js';
import { jsonlExporter } from './jsonl-sink.js';
import type { TrainerExporter } from './spec.js';
import { safeToTrlLines, type TrlRowOptions } from './to-trl-row.js';

export const TrlExportOptionsSchema = z.strictObject({
  argumentsEncoding: z.enum(['object', 'string']).optional(),
  toolNames: z.boolean().optional(),
  parallelCalls: z.enum(['keep', 'split']).optional(),
  toolCallContent: z.enum(['empty', 'null', 'omit']).optional(),
  callIds: z.enum(['keep', 'mistral']).optional(),
  toolCallText: z.enum(['none', 'lfm2']).optional(),
  layout: z.enum(['messages', 'prompt-completion']).optional(),
  families: z.array(z.string().min(1)).optional(),
  fileName: z.string().min(1).optional(),
});

/**
 * Options of `trlExporter` (a `trl` entry of a pipeline config's `exports`): the row options and the file
 * name.
 */
export interface TrlExportOptions extends TrlRowOptions {
  /** Name of the data file in the output folder (default `train.jsonl`). */
  fileName?: string;
}

/**
 * How TRL rows with these options write what chat templates care about.
 *
 * @example
 * trlExportShape({ parallelCalls: 'split' }).parallelCalls // 'split'
 */
export function trlExportShape(options: TrlRowOptions): ExportShape {
  return {
    argumentsEncoding: options.argumentsEncoding ?? 'object',
    parallelCalls: options.parallelCalls ?? 'keep',
    toolCallContent: options.toolCallContent ?? 'empty',
    toolCallText: options.toolCallText ?? 'none',
    callIds: options.callIds ?? 'keep',
  };
}

const describe = 'TRL SFTTrainer conversational JSONL with a tools column (messages + tools as JSON text)';

/**
 * Writes TRL SFT rows: `{"messages": [...], "tools": "<JSON text>"}`, one per line; with `layout:
 * 'prompt-completion'`, `{"prompt": [...], "completion": [assistant message], "tools"}`, one per trained
 * assistant message. A `README.md` says which chat templates the rows are for; `families` declares them,
 * and a family the options cannot carry tool calls to is refused at `open` (a usage error).
 *
 * @example
 * const sink = await trlExporter.open('out/trl');
 * await sink.write(example);
 * await sink.close(); // { format: 'trl', files: ['out/trl/train.jsonl', 'out/trl/README.md'], rows: 1, rejected: 0, … }
 */
export const trlExporter: TrainerExporter<TrlExportOptions> = jsonlExporter({
  format: 'trl',
  describe,
  options: TrlExportOptionsSchema,
  fileName: 'train.jsonl',
  toRow: safeToTrlLines,
  lines: (rows) => rows,
  check: (options) => checkDeclaredFamilies('trl', options.families, trlExportShape(options)),
  templates: (options) => options.families ?? templatesFor(trlExportShape(options)),
  companions: (options, outDir) => [
    {
      file: join(outDir, 'README.md'),
      content: exportReadme({
        format: 'trl',
        describe: `${describe}; layout ${options.layout ?? 'messages'}`,
        shape: trlExportShape(options),
        ...(options.families ? { declared: options.families } : {}),
      }),
    },
  ],
});
