// The `trl` exporter: a JSONL file that TRL's SFTTrainer (and `trl sft`) loads with `datasets` unchanged.
import { z } from 'zod';
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
  fileName: z.string().min(1).optional(),
});

export interface TrlExportOptions extends TrlRowOptions {
  /** Name of the data file in the output folder (default `train.jsonl`). */
  fileName?: string;
}

/**
 * Writes TRL SFT rows: `{"messages": [...], "tools": "<JSON text>"}`, one per line; with `layout:
 * 'prompt-completion'`, `{"prompt": [...], "completion": [assistant message], "tools"}`, one per trained
 * assistant message.
 *
 * @example
 * const sink = await trlExporter.open('out/trl');
 * await sink.write(example);
 * await sink.close(); // { format: 'trl', files: ['out/trl/train.jsonl'], rows: 1, rejected: 0, … }
 */
export const trlExporter: TrainerExporter<TrlExportOptions> = jsonlExporter({
  format: 'trl',
  describe: 'TRL SFTTrainer conversational JSONL with a tools column (messages + tools as JSON text)',
  options: TrlExportOptionsSchema,
  fileName: 'train.jsonl',
  toRow: safeToTrlLines,
  lines: (rows) => rows,
});
