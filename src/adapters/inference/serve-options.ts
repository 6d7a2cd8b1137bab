// What a serve command is built from, the same for every engine, and the command it becomes: the program,
// its arguments, and the URLs the server will answer on. Builders are pure: they start nothing.
import { z } from 'zod';
import { HarnessAugmentError } from '../../harness/issues.js';
import { fromZodIssues } from '../../harness/parse-harness.js';
import type { InferenceEngine } from './tool-parsers.js';

export const ServeOptionsSchema = z.strictObject({
  /** The model to serve: a Hugging Face id or a local path. */
  model: z.string().min(1),
  host: z.string().min(1).default('127.0.0.1'),
  port: z.int().min(1).max(65535).optional(),
  /** The name clients send as `model` (default: the model). */
  servedModelName: z.string().min(1).optional(),
  /** A model family (`qwen`, `llama3`, …, see toolParsers) or the engine's own parser name. */
  toolParser: z.string().min(1).optional(),
  /** A parser name passed to the engine unchecked (a parser this library does not list yet). */
  toolParserName: z.string().min(1).optional(),
  /** A Jinja chat template file (or, for SGLang, a template name). */
  chatTemplate: z.string().min(1).optional(),
  /** Speculative decoding settings (see SpeculativeConfigSchema); validated by the builder. */
  speculative: z.unknown().optional(),
  maxModelLength: z.int().min(1).optional(),
  tensorParallelSize: z.int().min(1).optional(),
  /** Share of GPU memory the engine may take, in (0, 1]. */
  gpuMemoryShare: z.number().gt(0).max(1).optional(),
  /** A reasoning parser (`qwen3`, `deepseek_r1`, …), passed as is. */
  reasoningParser: z.string().min(1).optional(),
  /** Arguments appended unchanged. */
  extraArgs: z.array(z.string()).default([]),
});

/**
 * What `buildVllmServeCommand` and `buildSglangServeCommand` take, the same for both engines: the model,
 * where to listen, and the engine settings (`ServeOptionsSchema` checks them and fills the defaults).
 */
export type ServeOptions = z.input<typeof ServeOptionsSchema>;
export type ParsedServeOptions = z.output<typeof ServeOptionsSchema>;

/** A command that starts an inference server, and where it will answer. */
export interface ServeCommand {
  engine: InferenceEngine;
  /** The program (`vllm`, `python3`). */
  command: string;
  args: string[];
  /** The OpenAI-compatible root, e.g. `http://127.0.0.1:8000/v1`. */
  baseURL: string;
  /** GET answers 200 once the model is loaded. */
  healthURL: string;
  /** The Prometheus text endpoint. */
  metricsURL: string;
  /** The model name requests must send. */
  servedModel: string;
}

export function parseServeOptions(engine: InferenceEngine, options: unknown): ParsedServeOptions {
  const parsed = ServeOptionsSchema.safeParse(options);
  if (parsed.success) return parsed.data;
  const issues = fromZodIssues(parsed.error.issues);
  const first = issues[0]!;
  throw new HarnessAugmentError(
    `${engine} serve options are invalid: ${first.path.join('.') || '(root)'}: ${first.message}`,
    { issues, kind: 'usage' },
  );
}

export function serverURLs(host: string, port: number) {
  const shown = host === '0.0.0.0' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const root = `http://${shown}:${port}`;
  return { baseURL: `${root}/v1`, healthURL: `${root}/health`, metricsURL: `${root}/metrics` };
}

/**
 * The command as one shell line, each argument quoted where it needs it (for logs and scripts).
 *
 * @example
 * shellLine(buildVllmServeCommand({ model: 'Qwen/Qwen3-0.6B' })) // "vllm serve Qwen/Qwen3-0.6B --host 127.0.0.1 --port 8000"
 */
export function shellLine(command: Pick<ServeCommand, 'command' | 'args'>): string {
  const quote = (word: string) =>
    /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
  return [command.command, ...command.args].map(quote).join(' ');
}
