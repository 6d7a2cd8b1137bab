// The `openai` exporter: a JSONL training file for OpenAI supervised fine-tuning, ready to upload.
import { join } from 'node:path';
import { z } from 'zod';
import { exportReadme } from './families.js';
import { jsonlExporter } from './jsonl-sink.js';
import type { TrainerExporter } from './spec.js';
import { type OpenAIRowOptions, safeToOpenAIRow } from './to-openai-row.js';

export const OpenAIExportOptionsSchema = z.strictObject({
  parallelToolCalls: z.boolean().optional(),
  fileName: z.string().min(1).optional(),
});

/**
 * Options of `openAIExporter` (an `openai` entry of a pipeline config's `exports`): the row options and the
 * file name.
 */
export interface OpenAIExportOptions extends OpenAIRowOptions {
  /** Name of the data file in the output folder (default `train.jsonl`). */
  fileName?: string;
}

/**
 * Writes OpenAI fine-tuning rows: `{"messages": [...], "tools": [...]}`, arguments as JSON strings.
 *
 * @example
 * const sink = await openAIExporter.open('out/openai', { parallelToolCalls: true });
 * await sink.write(example);
 * await sink.close(); // then: openai api files.create -f out/openai/train.jsonl -p fine-tune
 */
export const openAIExporter: TrainerExporter<OpenAIExportOptions> = jsonlExporter({
  format: 'openai',
  describe: 'OpenAI supervised fine-tuning chat JSONL (messages, tools array, optional parallel_tool_calls)',
  options: OpenAIExportOptionsSchema,
  fileName: 'train.jsonl',
  toRow: safeToOpenAIRow,
  companions: (_options, outDir) => [
    {
      file: join(outDir, 'README.md'),
      content: exportReadme({
        format: 'openai',
        describe:
          'OpenAI supervised fine-tuning chat JSONL (messages, tools array, optional parallel_tool_calls)',
        renderedBy: "OpenAI's fine-tuning service (server-side, for OpenAI's own models)",
      }),
    },
  ],
});
