// The `axolotl` exporter: chat_template JSONL plus an `axolotl.yaml` with the matching `datasets:` entry
// (keys as in Axolotl's SFTDataset schema), to merge into a training config for `axolotl train`.
import { basename, join } from 'node:path';
import YAML from 'yaml';
import { z } from 'zod';
import { quoteAmbiguousScalars } from '../../harness/yaml-text.js';
import { checkDeclaredFamilies, parseExporterOptions } from './exporter-options.js';
import { type ExportShape, exportReadme, templatesFor } from './families.js';
import { openJsonlSink } from './jsonl-sink.js';
import type { TrainerExporter } from './spec.js';
import { type AxolotlRowOptions, safeToAxolotlRow } from './to-axolotl-row.js';

export const AxolotlExportOptionsSchema = z.strictObject({
  toolNames: z.boolean().optional(),
  parallelCalls: z.enum(['keep', 'split']).optional(),
  callIds: z.enum(['keep', 'mistral']).optional(),
  families: z.array(z.string().min(1)).optional(),
  fileName: z.string().min(1).optional(),
  configFileName: z.string().min(1).optional(),
  datasetPath: z.string().min(1).optional(),
});

/**
 * Options of `axolotlExporter` (an `axolotl` entry of a pipeline config's `exports`): the row options and
 * the names the files are written and referenced under.
 */
export interface AxolotlExportOptions extends AxolotlRowOptions {
  /** Name of the data file in the output folder (default `train.jsonl`). */
  fileName?: string;
  /** Name of the config snippet (default `axolotl.yaml`). */
  configFileName?: string;
  /**
   * The dataset `path` written into the config. Axolotl resolves it from the folder it runs in; the default
   * is the data file's name, relative to the folder that holds it and `axolotl.yaml` (run `axolotl train`
   * there). Never the path given to `open`: a pipeline writes into a staging folder that is renamed away.
   */
  datasetPath?: string;
}

/**
 * The `datasets:` entry that makes Axolotl read an exported file with the model's chat template and
 * train on the assistant turns only.
 *
 * @example
 * axolotlDatasetConfig('out/axolotl/train.jsonl').datasets[0].type // 'chat_template'
 */
export function axolotlDatasetConfig(datasetPath: string) {
  return {
    datasets: [
      {
        path: datasetPath,
        ds_type: 'json',
        type: 'chat_template',
        field_messages: 'messages',
        field_tools: 'tools',
        message_property_mappings: { role: 'role', content: 'content' },
        roles: { system: ['system'], user: ['user'], assistant: ['assistant'], tool: ['tool'] },
        roles_to_train: ['assistant'],
        train_on_eos: 'turn',
        // Per-message override: hook-rejected attempts carry `training: false`.
        message_field_training: 'training',
      },
    ],
  };
}

/**
 * The config snippet as YAML text, with a comment saying how to use it.
 *
 * @example
 * renderAxolotlConfig('out/axolotl/train.jsonl').startsWith('# Axolotl dataset entry') // true
 */
export function renderAxolotlConfig(datasetPath: string): string {
  const document = quoteAmbiguousScalars(new YAML.Document(axolotlDatasetConfig(datasetPath)));
  document.commentBefore =
    ' Axolotl dataset entry written by harness-augment (format: axolotl).\n' +
    ' Merge it into a training config (base_model, sequence_len, …), then run it from this folder: axolotl train config.yml';
  return document.toString({ lineWidth: 0 });
}

/**
 * How Axolotl hands these rows to a chat template: arguments decoded to mappings, a call-only message
 * without `content`, the rest as the options say.
 *
 * @example
 * axolotlExportShape({ parallelCalls: 'split' }).argumentsEncoding // 'object'
 */
export function axolotlExportShape(options: AxolotlRowOptions): ExportShape {
  return {
    argumentsEncoding: 'object',
    parallelCalls: options.parallelCalls ?? 'keep',
    toolCallContent: 'omit',
    toolCallText: 'none',
    callIds: options.callIds ?? 'keep',
  };
}

/**
 * Writes Axolotl chat_template rows and the `datasets:` config entry that reads them.
 *
 * @example
 * const sink = await axolotlExporter.open('out/axolotl');
 * await sink.write(example);
 * (await sink.close()).files // ['out/axolotl/train.jsonl', 'out/axolotl/axolotl.yaml', 'out/axolotl/README.md']
 */
export const axolotlExporter: TrainerExporter<AxolotlExportOptions> = {
  format: 'axolotl',
  describe: 'Axolotl chat_template JSONL (messages + tools list) and an axolotl.yaml datasets entry',
  checkOptions(options) {
    const parsed = parseExporterOptions('axolotl', AxolotlExportOptionsSchema, options);
    checkDeclaredFamilies('axolotl', parsed.families, axolotlExportShape(parsed));
  },
  async open(outDir, options) {
    const parsed = parseExporterOptions('axolotl', AxolotlExportOptionsSchema, options);
    const shape = axolotlExportShape(parsed);
    checkDeclaredFamilies('axolotl', parsed.families, shape);
    const file = join(outDir, parsed.fileName ?? 'train.jsonl');
    return openJsonlSink({
      format: 'axolotl',
      file,
      convert: (example) => safeToAxolotlRow(example, parsed),
      templates: parsed.families ?? templatesFor(shape),
      companions: () => [
        {
          file: join(outDir, parsed.configFileName ?? 'axolotl.yaml'),
          content: renderAxolotlConfig(parsed.datasetPath ?? basename(file)),
        },
        {
          file: join(outDir, 'README.md'),
          content: exportReadme({
            format: 'axolotl',
            describe: `${axolotlExporter.describe}; Axolotl renders the rows with the model's chat template`,
            shape,
            ...(parsed.families ? { declared: parsed.families } : {}),
          }),
        },
      ],
    });
  },
};
