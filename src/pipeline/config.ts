// The pipeline's YAML configuration: which harness, which base tasks, which augmentation policy, which
// teacher and judge, which exports. Validated with zod; an error names the file, the path and the rule.
import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { defaultVariantPoolSize } from '../augment/variant-pool.js';
import { locateIssues, readDocument } from '../harness/documents.js';
import { HarnessAugmentError } from '../harness/issues.js';
import { fromZodIssues } from '../harness/parse-harness.js';
import { EndpointSchema } from './endpoint-config.js';
import { MeaningJudgeConfigSchema } from './meaning-judge-config.js';
import { OpdConfigSchema } from './opd.js';
import { RlConfigSchema } from './rl.js';

export const ExportFormatSchema = z.enum(['trl', 'axolotl', 'llama-factory', 'openai', 'verl']);

const TeacherKindSchema = z.enum(['replay', 'oracle', 'openai-compatible']);

/**
 * The schema of a pipeline configuration file.
 *
 * @example
 * const config = PipelineConfigSchema.parse(document); // loadPipelineConfig(file) reads and checks a file
 */
export const PipelineConfigSchema = z.strictObject({
  /** The base harness file. */
  harness: z.string().min(1),
  /** The base tasks: gold trajectories from a file, or episodes the simulator plans. */
  inputs: z.union(
    [
      z.strictObject({ trajectories: z.string().min(1) }),
      z.strictObject({
        simulate: z.strictObject({
          /** A scenario name (`livestream`, `replay`) or a module path exporting a scenario; the CLI resolves it. */
          scenario: z.string().min(1),
          /** The replay scenario's episodes: a trajectories JSONL file. */
          trajectories: z.string().min(1).optional(),
          /** The replay scenario's tool backends: a YAML or JSON file. */
          backends: z.string().min(1).optional(),
          /** Episodes to plan (default: the scenario's own count). */
          episodes: z.number().int().positive().max(1_000_000).optional(),
          seed: z.string().min(1).optional(),
          idPrefix: z.string().optional(),
        }),
      }),
    ],
    // Without it zod says only "Invalid input" when neither shape matches.
    {
      error:
        'expected { trajectories: <file> } or { simulate: { scenario: <name or module>, trajectories?, backends?, episodes?, seed?, idPrefix? } }',
    },
  ),
  seed: z.union([z.string().min(1), z.number().int()]).default('0'),
  /** Augmentation: a preset name or a policy file, the variants per task, and the severity. */
  augment: z
    .strictObject({
      policy: z.string().min(1).default('hat'),
      variants: z.number().int().min(0).max(10_000).default(4),
      severity: z.union([z.enum(['slight', 'medium', 'heavy']), z.number().min(0).max(1)]).optional(),
      /** Also emit each task under the base harness (variant index -1, id `<task>/base`). */
      includeOriginal: z.boolean().default(true),
      /** Shared variants built once and drawn by each unit (0: every variant built for its unit). */
      pool: z.number().int().min(0).max(100_000).default(defaultVariantPoolSize),
      /**
       * Worker threads that augment the SFT units, so that the event loop keeps sending requests (1: on
       * the main thread; `auto`: one per core but one). Never changes the output.
       */
      threads: z.union([z.number().int().min(1).max(256), z.literal('auto')]).default(1),
    })
    .prefault({}),
  teacher: z
    .strictObject({
      /** Who produces trajectories for variants whose operators are all `exact`. */
      exact: TeacherKindSchema.default('replay'),
      /** Who regenerates trajectories for variants with a `regenerate` operator. */
      regenerate: TeacherKindSchema.exclude(['replay']).default('oracle'),
      endpoint: EndpointSchema.optional().describe('For openai-compatible teachers.'),
      /** A model that paraphrases text for `regenerate` operators; without it those operators are skipped. */
      paraphraser: EndpointSchema.optional(),
    })
    .prefault({}),
  judge: z
    .strictObject({
      rules: z
        .strictObject({
          minAccuracy: z.number().min(0).max(1).default(1),
          minEffectiveness: z.number().min(0).max(1).default(0.5),
        })
        .prefault({}),
      model: z
        .strictObject({ endpoint: EndpointSchema, k: z.number().int().min(1).max(64).default(3) })
        .optional(),
      /** A meaning judge of the texts each variant changed (`hsa augment --judge` takes the same shape). */
      meaning: MeaningJudgeConfigSchema.optional(),
    })
    .prefault({}),
  /** Hook-retry collapsing: the share of trajectories with hook failures that keep their full retry trace. */
  collapse: z.strictObject({ keepShare: z.number().min(0).max(1).default(0.1) }).prefault({}),
  /** Trainer exports: a format name, or `{ format: { options } }`. */
  exports: z
    .array(
      z.union(
        [
          ExportFormatSchema,
          z
            .partialRecord(ExportFormatSchema, z.record(z.string(), z.unknown()).nullable())
            .refine((entry) => Object.keys(entry).length === 1, 'one format per entry: { trl: { … } }'),
        ],
        {
          error: `expected a format (${ExportFormatSchema.options.join(', ')}) or { <format>: { options } }`,
        },
      ),
    )
    .default(['trl'])
    .superRefine((entries, context) => {
      // Each export gets its own folder under exports/: `folder` (default: the format's name).
      if (entries.some((entry) => typeof entry !== 'string' && Object.keys(entry).length !== 1)) return;
      const seen = new Map<string, number>();
      for (const [index, [format, options]] of exportEntries(entries).entries()) {
        const folder = options.folder ?? format;
        if (typeof folder !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(folder))
          context.addIssue({
            code: 'custom',
            path: [index, format, 'folder'],
            message: 'folder: a plain folder name (letters, digits, ., _, -)',
          });
        else if (seen.has(folder))
          context.addIssue({
            code: 'custom',
            path: [index],
            message: `exports ${seen.get(folder)} and ${index} both write exports/${folder}; give one a \`folder\``,
          });
        else seen.set(folder, index);
      }
    }),
  /** Also build the variant benchmark set from bench items. */
  bench: z
    .strictObject({
      items: z.string().min(1),
      variants: z.number().int().min(1).max(10_000).default(4),
      policy: z.string().min(1).default('hat'),
      /** Shared variants the items draw from (the bench's own pool; 0: every variant built for its item). */
      pool: z.number().int().min(0).max(100_000).default(0),
    })
    .optional(),
  /** On-policy distillation data: a prompt set and the pre-SFT base model as teacher. */
  opd: OpdConfigSchema.optional(),
  /** RL data: GRPO groups over the scenario's episodes, original and augmented harness states. */
  rl: RlConfigSchema.optional(),
  /** A module exporting the custom hook checks the harness names (as `hsa … --hook-checks` loads it). */
  hookChecks: z.string().min(1).optional(),
  /**
   * Modules exporting third-party operators (as `hsa … --operators` loads them), resolved against the
   * config's folder; their operators join the registry beside the built-ins, for the policies of the run.
   */
  operators: z.array(z.string().min(1)).min(1).optional(),
  /** Most assistant messages per user turn in every episode the pipeline plays (default: the runtime's). */
  maxStepsPerTurn: z.number().int().min(1).max(100_000).optional(),
  out: z.string().min(1).default('out/pipeline'),
  concurrency: z.number().int().min(1).max(256).default(8),
});

/** A pipeline configuration as written in its YAML or JSON file, before defaults apply. */
export type PipelineConfigInput = z.input<typeof PipelineConfigSchema>;
/** A parsed pipeline configuration, defaults applied (`parsePipelineConfig`, `loadPipelineConfig`). */
export type PipelineConfig = z.output<typeof PipelineConfigSchema>;
export type { EndpointConfig } from './endpoint-config.js';
export type TeacherKind = z.output<typeof TeacherKindSchema>;

/** The configured exports as `[format, options]` pairs, in order (options may hold the pipeline's `folder`). */
export function exportsOf(config: PipelineConfig): Array<[string, Record<string, unknown>]> {
  return exportEntries(config.exports);
}

/**
 * Where an export is written under `exports/`, and the options its exporter takes (without `folder`).
 *
 * @example
 * exportTarget('trl', { folder: 'trl-deepseek', argumentsEncoding: 'string' }) // { folder: 'trl-deepseek', options: { argumentsEncoding: 'string' } }
 */
export function exportTarget(
  format: string,
  options: Record<string, unknown>,
): { folder: string; options: Record<string, unknown> } {
  const { folder, ...rest } = options;
  return { folder: typeof folder === 'string' ? folder : format, options: rest };
}

function exportEntries(
  entries: ReadonlyArray<string | Partial<Record<string, Record<string, unknown> | null>>>,
): Array<[string, Record<string, unknown>]> {
  return entries.flatMap((entry) =>
    typeof entry === 'string'
      ? [[entry, {}] as [string, Record<string, unknown>]]
      : Object.entries(entry).map(
          ([format, options]) => [format, options ?? {}] as [string, Record<string, unknown>],
        ),
  );
}

/**
 * Validates a configuration object; paths in it stay as written.
 *
 * @example
 * parsePipelineConfig({ harness: 'h.yaml', inputs: { trajectories: 't.jsonl' } })
 */
export function parsePipelineConfig(input: unknown, source = 'pipeline config'): PipelineConfig {
  const parsed = PipelineConfigSchema.safeParse(input);
  if (!parsed.success) {
    const issues = fromZodIssues(parsed.error.issues);
    throw new HarnessAugmentError(`${source} is invalid`, {
      issues: issues.map((issue) => ({ ...issue, file: source })),
    });
  }
  const config = parsed.data;
  const teachers = [config.teacher.exact, config.teacher.regenerate];
  if (teachers.includes('openai-compatible') && !config.teacher.endpoint)
    throw new HarnessAugmentError(
      `${source}: teacher.endpoint is required for an openai-compatible teacher`,
      {
        issues: [
          {
            code: 'missing_endpoint',
            path: ['teacher', 'endpoint'],
            message: 'required by the openai-compatible teacher',
            file: source,
          },
        ],
      },
    );
  if (teachers.includes('oracle') && !('simulate' in config.inputs) && config.teacher.exact === 'oracle')
    throw new HarnessAugmentError(
      `${source}: the oracle teacher plays simulated episodes; use inputs.simulate`,
      {
        issues: [
          {
            code: 'oracle_needs_simulation',
            path: ['inputs'],
            message: 'the oracle teacher needs inputs.simulate',
            file: source,
          },
        ],
      },
    );
  return config;
}

/**
 * Reads a YAML or JSON configuration file; relative paths in it resolve against the file's folder.
 *
 * @example
 * const config = await loadPipelineConfig('examples/pipeline/livestream.yaml');
 */
export async function loadPipelineConfig(file: string): Promise<PipelineConfig> {
  const document = await readDocument(file);
  let config: PipelineConfig;
  try {
    config = parsePipelineConfig(document.value, file);
  } catch (error) {
    // Point each issue at its line in the file.
    if (HarnessAugmentError.isInstance(error) && error.issues.length > 0)
      throw new HarnessAugmentError(error.message, { issues: locateIssues(error.issues, document) });
    throw error;
  }
  const base = dirname(file);
  const at = (path: string) => (isAbsolute(path) ? path : resolve(base, path));
  config.harness = at(config.harness);
  if ('trajectories' in config.inputs) config.inputs.trajectories = at(config.inputs.trajectories);
  else {
    const simulate = config.inputs.simulate;
    if (/\.(c?m?js|m?ts)$/i.test(simulate.scenario)) simulate.scenario = at(simulate.scenario);
    if (simulate.trajectories) simulate.trajectories = at(simulate.trajectories);
    if (simulate.backends) simulate.backends = at(simulate.backends);
  }
  if (config.opd) config.opd.prompts = at(config.opd.prompts);
  if (config.hookChecks) config.hookChecks = at(config.hookChecks);
  if (config.operators) config.operators = config.operators.map(at);
  if (config.bench) {
    config.bench.items = at(config.bench.items);
    if (/\.(ya?ml|json)$/i.test(config.bench.policy)) config.bench.policy = at(config.bench.policy);
  }
  if (/\.(ya?ml|json)$/i.test(config.augment.policy)) config.augment.policy = at(config.augment.policy);
  config.out = at(config.out);
  return config;
}
