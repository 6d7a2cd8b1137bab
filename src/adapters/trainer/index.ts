// The trainer exporters, by format name, and the pure per-example converters behind them.
import { axolotlExporter } from './axolotl.js';
import { llamaFactoryExporter } from './llama-factory.js';
import { openAIExporter } from './openai.js';
import type { TrainerExporter } from './spec.js';
import { trlExporter } from './trl.js';
import { verlExporter } from './verl.js';

export {
  type AxolotlExportOptions,
  axolotlDatasetConfig,
  axolotlExporter,
  axolotlExportShape,
  renderAxolotlConfig,
} from './axolotl.js';
export {
  alternationProblem,
  type ChatTemplateSource,
  type CheckExportsOptions,
  cannotCarryCalls,
  checkExports,
  type ExportCheckResult,
} from './check-exports.js';
export {
  type ChatTemplateRule,
  chatTemplateRules,
  type ExportShape,
  templateProblem,
  templatesFor,
} from './families.js';
export {
  type LlamaFactoryExportOptions,
  llamaFactoryDatasetEntry,
  llamaFactoryExporter,
  mergeDatasetInfo,
} from './llama-factory.js';
export { type OpenAIExportOptions, openAIExporter } from './openai.js';
export type { ExportReject, ExportSink, ExportSummary, TrainerExporter, TrainingExample } from './spec.js';
export {
  type AxolotlMessage,
  type AxolotlRow,
  type AxolotlRowOptions,
  type AxolotlTool,
  safeToAxolotlRow,
  toAxolotlRow,
} from './to-axolotl-row.js';
export { type OpenAIRow, type OpenAIRowOptions, safeToOpenAIRow, toOpenAIRow } from './to-openai-row.js';
export {
  type SharegptRole,
  type SharegptRow,
  type SharegptRowOptions,
  type SharegptTurn,
  safeToSharegptRow,
  toolResponseSeparator,
  toSharegptRow,
} from './to-sharegpt-row.js';
export {
  safeToTrlLines,
  safeToTrlPromptCompletionRows,
  safeToTrlRow,
  type TrlMessage,
  type TrlPromptCompletionRow,
  type TrlRow,
  type TrlRowOptions,
  type TrlToolCall,
  toTrlRow,
} from './to-trl-row.js';
export {
  safeToVerlRow,
  toVerlRow,
  type VerlMessage,
  type VerlRow,
  type VerlRowOptions,
} from './to-verl-row.js';
export { type TrlExportOptions, trlExporter, trlExportShape } from './trl.js';
export { type VerlExportOptions, verlExporter, verlExportShape } from './verl.js';
export { verlDatasetClassName, verlDatasetClassSource } from './verl-dataset-class.js';
export { verlParquetSchema } from './verl-schema.js';

/**
 * Every built-in trainer exporter, by format name.
 *
 * @example
 * const sink = await trainerExporters['llama-factory'].open('out/lf', { datasetName: 'shop_sft' });
 */
// biome-ignore lint/suspicious/noExplicitAny: each exporter has its own options type; the registry is keyed by name.
export const trainerExporters: Record<string, TrainerExporter<any>> = {
  trl: trlExporter,
  axolotl: axolotlExporter,
  'llama-factory': llamaFactoryExporter,
  openai: openAIExporter,
  verl: verlExporter,
};
