// The top-level commands of `hsa`, in the order the help lists them: each one's term and summary exactly as
// the help prints them, and the import of its module. `hsa --help`, `hsa` alone and an unknown command print
// the list from here without importing any command module (each one pulls in the library code it needs);
// test/cli/command-listing.test.ts compares every entry with the command its module defines, so the list
// cannot drift from the commands.
import type { Command } from 'commander';

/** Adds a command (and its subcommands) to the program. */
export type RegisterCommand = (program: Command) => void;

export interface ListedCommand {
  readonly name: string;
  /** The term of the help's command list: the name, ` [options]` when it has options, its arguments. */
  readonly term: string;
  /** The line the help's command list shows: the command's summary, else its description. */
  readonly summary: string;
  readonly load: () => Promise<RegisterCommand>;
}

export const commandListing: readonly ListedCommand[] = [
  {
    name: 'validate',
    term: 'validate [options] <harness>',
    summary: 'check a harness file, and optionally a trajectories JSONL file under it',
    load: async () => (await import('./commands/validate.js')).registerValidate,
  },
  {
    name: 'render',
    term: 'render [options] <harness>',
    summary: 'render the system prompt of a harness for a request context',
    load: async () => (await import('./commands/render.js')).registerRender,
  },
  {
    name: 'import',
    term: 'import',
    summary:
      'build a harness from tools or skills in another format, or bring logged conversations under a harness',
    load: async () => (await import('./commands/import.js')).registerImport,
  },
  {
    name: 'harness',
    term: 'harness',
    summary: 'build one harness from many sources, or update it',
    load: async () => (await import('./commands/harness.js')).registerHarness,
  },
  {
    name: 'export',
    term: 'export',
    summary: 'write the tools or skills of a harness in another format',
    load: async () => (await import('./commands/export.js')).registerExport,
  },
  {
    name: 'schema',
    term: 'schema [options]',
    summary: 'print the JSON Schema of the harness file format',
    load: async () => (await import('./commands/schema.js')).registerSchema,
  },
  {
    name: 'hash',
    term: 'hash <harness>',
    summary: 'print the content hashes of a harness and of its four parts',
    load: async () => (await import('./commands/hash.js')).registerHash,
  },
  {
    name: 'augment',
    term: 'augment [options]',
    summary: 'turn a harness and trajectories into certified (variant harness, rewritten trajectory) rows',
    load: async () => (await import('./commands/augment.js')).registerAugment,
  },
  {
    name: 'explain',
    term: 'explain [options] <rows>',
    summary: 'show the operator chain of augmented rows and, given the base harness, what changed',
    load: async () => (await import('./commands/explain.js')).registerExplain,
  },
  {
    name: 'review',
    term: 'review [options] <rows>',
    summary:
      'write an offline HTML page that shows, for a seeded sample of rows, each changed text beside the base with the changed words marked',
    load: async () => (await import('./commands/review.js')).registerReview,
  },
  {
    name: 'invert',
    term: 'invert [options]',
    summary: "map a model's output under a variant back to the base harness vocabulary",
    load: async () => (await import('./commands/invert.js')).registerInvert,
  },
  {
    name: 'operators',
    term: 'operators [options]',
    summary:
      'list the perturbation operators (with --json: an array of { name, dimension, mode, version, needsExample, description, params })',
    load: async () => (await import('./commands/operators.js')).registerOperators,
  },
  {
    name: 'bench',
    term: 'bench',
    summary:
      'derive items, generate, carry to a real next version, predict, score and report variant benchmark sets',
    load: async () => (await import('./commands/bench.js')).registerBench,
  },
  {
    name: 'drift',
    term: 'drift [options]',
    summary:
      "describe each real edit of a harness's history and whether a policy's variants cover it (drift.json, drift.html)",
    load: async () => (await import('./commands/drift.js')).registerDrift,
  },
  {
    name: 'sim',
    term: 'sim',
    summary: "simulate a scenario's episodes with its oracle or a model",
    load: async () => (await import('./commands/sim.js')).registerSim,
  },
  {
    name: 'env',
    term: 'env',
    summary: "serve a scenario's episodes as an RL environment",
    load: async () => (await import('./commands/env.js')).registerEnv,
  },
  {
    name: 'pipeline',
    term: 'pipeline',
    summary: 'run the training-data pipeline from a YAML config',
    load: async () => (await import('./commands/pipeline.js')).registerPipeline,
  },
  {
    name: 'worker',
    term: 'worker [options]',
    summary:
      'run the SFT units that `hsa pipeline run --queue` puts on a BullMQ queue (start any number, on any machine)',
    load: async () => (await import('./commands/worker.js')).registerWorker,
  },
  {
    name: 'latency',
    term: 'latency [options]',
    summary:
      'replay full agent episodes against a served model and report P50/P95/P99, TTFT and the deadline share',
    load: async () => (await import('./commands/latency.js')).registerLatency,
  },
  {
    name: 'demo',
    term: 'demo [options]',
    summary:
      'train a fixed-harness and a harness-augmented learner on a harness and its gold trajectories (yours, or a bundled fixture), score both on held-out harness variants, write the report',
    load: async () => (await import('./commands/demo.js')).registerDemo,
  },
  {
    name: 'check-exports',
    term: 'check-exports [options] <folder...>',
    summary:
      "check trainer exports as their consumers read them (trl, axolotl, llama-factory, verl, openai, and the RL stage's openrlhf prompts): each trainer's rules, and every row rendered through the chat templates given or the ones the folder names",
    load: async () => (await import('./commands/check-exports.js')).registerCheckExports,
  },
];
