// The trainer-exporter spec: what an exporter takes (training examples), what it gives back (a summary of
// the files it wrote) and the streaming sink in between. Exporters translate; they never decide which
// examples to keep: an example a format cannot hold is rejected with its issues, never silently changed.
import type { Issue } from '../../harness/issues.js';
import type { Message, OfferedTool } from '../../trajectory/schema.js';

/**
 * One training example: Chat Completions messages (tool-call `arguments` as the raw JSON string the model
 * wrote, hook turns marked with `hsa`) and the tools offered, as built from a trajectory.
 *
 * @example
 * const example: TrainingExample = { id: 'ls-0001', messages: trajectory.messages, tools: trajectory.tools ?? [] };
 */
export interface TrainingExample {
  id: string;
  messages: Message[];
  tools: OfferedTool[];
  meta?: Record<string, unknown>;
}

/**
 * An example an exporter could not write, with every issue found; `reason` is the first issue as one line.
 *
 * @example
 * const reject: ExportReject = { id: 'ls-0105', reason: '$.messages[6]: … [sharegpt_alternation]', issues };
 */
export interface ExportReject {
  id: string;
  reason: string;
  issues: Issue[];
}

/**
 * What a sink wrote: the files (data file first, then companions such as `dataset_info.json`), the rows
 * written and the examples rejected, in the order they arrived.
 *
 * @example
 * const { rows, rejected } = await sink.close(); // rows + rejected === examples written to the sink
 */
export interface ExportSummary {
  format: string;
  files: string[];
  rows: number;
  rejected: number;
  rejects?: ExportReject[];
  /**
   * The chat templates the rows are for (TRL's template names, `mistral`), as the folder's README lists
   * them; absent for a format no chat template renders (OpenAI, LLaMA-Factory).
   */
  templates?: string[];
}

/**
 * A streaming export: rows are written in the order received; nothing appears under its final name until
 * `close` renames the finished temporary files into place.
 *
 * @example
 * const sink = await trainerExporters.trl.open('out/trl');
 * for (const example of examples) await sink.write(example);
 * const summary = await sink.close();
 */
export interface ExportSink {
  write(example: TrainingExample): Promise<void>;
  close(): Promise<ExportSummary>;
  /** Removes the temporary files without publishing anything (after an error upstream). */
  abort(): Promise<void>;
}

/**
 * An exporter for one trainer's file format, registered by its format name.
 *
 * @example
 * const exporter: TrainerExporter<TrlOptions> = trainerExporters.trl;
 * const sink = await exporter.open('out/trl', { argumentsEncoding: 'string' });
 */
export interface TrainerExporter<Options> {
  format: string;
  describe: string;
  open(outDir: string, options?: Options): Promise<ExportSink>;
  /**
   * Throws the usage error `open` would for these options (a bad value, a declared family the options
   * cannot carry tool calls to), without writing anything: a pipeline checks its exports before any work.
   */
  checkOptions?(options?: Options): void;
}
