// The RL stage's data: GRPO groups over a scenario's episodes that mix the original harness and augmented
// harness states (a seeded share, one state per group or one per rollout), each row carrying the `/reset`
// payload that makes the environment server replay exactly its episode under exactly its variant (the
// variant id pinned, so a server that would draw another answers 409), the prompt the policy sees there,
// and how its reward is read: the total, or — with separate advantage groups for the tool-call and the
// reply segment, as in the HAT recipe — the mean of the segment's named rewards. Prompts come from the
// environment service itself, in process, so a row's prompt is byte for byte the server's observation.
import { z } from 'zod';
import { presets } from '../augment/presets.js';
import { createRandom } from '../augment/random.js';
import type { Registry } from '../augment/registry.js';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import { HarnessAugmentError } from '../harness/issues.js';
import type { RunContext } from '../harness/run-context.js';
import type { Harness } from '../harness/schema.js';
import type { ChatMessage, ResetRequest } from '../runtime/env/schemas.js';
import { createEnvService } from '../runtime/env/service.js';
import type { Scenario } from '../runtime/scenario.js';
import type { OfferedTool } from '../trajectory/schema.js';

const SeveritySchema = z.union([z.enum(['slight', 'medium', 'heavy']), z.number().min(0).max(1)]);

/**
 * The `rl` section of a pipeline configuration.
 *
 * @example
 * const rl = RlConfigSchema.parse(config.rl);
 */
export const RlConfigSchema = z.strictObject({
  /** Episodes (groups) to emit, from the first of the seed's plan (default: every planned episode). */
  episodes: z.int().min(1).optional(),
  /** Seed of the environment's plan and of the state draws (default: the pipeline's seed). */
  seed: z.union([z.string().min(1), z.int()]).optional(),
  /** Rollouts per group (the trainer's `num_generations` / `rollout.n`). */
  groupSize: z.int().min(1).max(256).default(8),
  /** Share of harness states that are augmented variants rather than the original harness. */
  augmentedShare: z.number().min(0).max(1).default(0.5),
  /** One harness state per group (every rollout of a group sees it), or one per rollout. */
  harnessPer: z.enum(['group', 'rollout']).default('group'),
  /** The augmentation preset the environment server draws variants from (it must know it by name). */
  policy: z.string().min(1).default('hat'),
  severity: SeveritySchema.optional(),
  /** Tool fault rate the server injects in these episodes (timeout, malformed output, permission denied). */
  faultRate: z.number().min(0).max(1).optional(),
  /** `split`: separate advantage groups for the tool-call segment and the reply segment. */
  segments: z.enum(['joint', 'split']).default('joint'),
  /** Which named rewards score each segment under `split` (names a scenario does not give are skipped). */
  segmentRewards: z
    .strictObject({
      tool: z.array(z.string().min(1)).min(1).default(['toolRationality', 'skillSelection', 'toolMatch']),
      reply: z.array(z.string().min(1)).min(1).default(['accuracy', 'effectiveness', 'replyMatch']),
    })
    .prefault({}),
  /** Where the shims reach the environment server. */
  envURL: z.url().default('http://127.0.0.1:8000'),
  formats: z
    .array(z.enum(['trl', 'verl', 'openrlhf']))
    .min(1)
    .default(['trl', 'verl', 'openrlhf']),
});

/** The `rl` section of a pipeline configuration, defaults applied (`RlConfigSchema`). */
export type RlConfig = z.output<typeof RlConfigSchema>;

/** How a row's rollouts are scored from the environment's answer. */
export interface RlRewardSpec {
  /** `total`: the episode's total reward; `segment`: the mean of `names` among its rewards. */
  kind: 'total' | 'segment';
  segment?: 'tool' | 'reply';
  names?: string[];
}

/** One RL prompt row, the same for every trainer format. */
export interface RlRow {
  /** Unique; `<group>` in per-group mode, `<group>/r<k>` per rollout, then `/tool` or `/reply` when split. */
  id: string;
  /** The advantage group: rows (and their rollouts) normalised together. */
  group: string;
  /** The rollout's index in its group, in per-rollout mode. */
  rollout?: number;
  scenario: string;
  episode: { index: number; id: string };
  seed: string;
  state: 'original' | 'augmented';
  variantId?: string;
  /** Why an augmented state fell back to the original harness (no certified variant). */
  augmentSkipped?: string;
  /** The body of `POST /reset` that replays this row's episode under its harness state. */
  reset: ResetRequest;
  reward: RlRewardSpec;
  /** The policy's first observation: system prompt under the row's harness, the first user message. */
  prompt: ChatMessage[];
  tools: OfferedTool[];
}

export interface RlPlanOptions {
  scenario: Scenario;
  harness: Harness;
  config: RlConfig;
  /** The pipeline's seed, used when the config gives none. */
  seed: string;
  registry?: Registry;
  /** Keep the groups whose episode index falls to this shard (index mod count). */
  shard?: { index: number; count: number };
  /** The run the plan belongs to (default: the environment service starts one, with `hookChecks`). */
  run?: RunContext | undefined;
  /** The custom hook checks the harness names (default: none), when no `run` is given (or the run's own). */
  hookChecks?: HookCheckRegistry | undefined;
  /** Most assistant messages per user turn (default: the environment's, `stepLimitFor`). */
  maxStepsPerTurn?: number;
}

/** What `planRlRows` plans: the RL rows (an episode under the original or a variant harness) and counts. */
export interface RlPlan {
  rows: RlRow[];
  counts: {
    groups: number;
    rows: number;
    augmented: number;
    original: number;
    augmentSkipped: number;
    /** Harness states left out because an input hook ends the episode at reset: the policy has no step. */
    endedAtReset: number;
  };
  /** The episodes (`entry_id`) of the states left out because they end at reset, in order. */
  endedAtReset: string[];
  /**
   * Operators of the policy the environment left out of its variants: they change what the hooks enforce,
   * and RL rows run episodes (`runnablePlan`).
   */
  leftOut: string[];
}

/**
 * Plans the RL rows of a scenario: groups, harness states, reset payloads and prompts.
 *
 * @example
 * const { rows } = await planRlRows({ scenario, harness, config: RlConfigSchema.parse({ episodes: 16 }), seed: '42' });
 * rows[0].reset // { seed: '42', index: 0, harness: 'original' }
 */
export async function planRlRows(options: RlPlanOptions): Promise<RlPlan> {
  const { scenario, harness, config } = options;
  if (!Object.hasOwn(presets, config.policy))
    throw new HarnessAugmentError(
      `rl.policy must be a preset the environment server knows by name (${Object.keys(presets).sort().join(', ')}); got "${config.policy}"`,
      {
        kind: 'usage',
        issues: [
          { code: 'unknown_preset', path: ['rl', 'policy'], message: `unknown preset "${config.policy}"` },
        ],
      },
    );
  const seed = String(config.seed ?? options.seed);
  const planned = scenario.defaultEpisodes({ base: harness, seed });
  const episodes = Math.min(config.episodes ?? planned, planned);
  const statesPerGroup = config.harnessPer === 'group' ? 1 : config.groupSize;
  const service = createEnvService({
    scenario,
    harness,
    seed,
    maxEpisodes: episodes * statesPerGroup + 1,
    ...(options.registry ? { registry: options.registry } : {}),
    run: options.run,
    hookChecks: options.hookChecks,
    ...(options.maxStepsPerTurn !== undefined ? { maxStepsPerTurn: options.maxStepsPerTurn } : {}),
  });
  const random = createRandom(`${seed}:rl`);
  const rows: RlRow[] = [];
  const counts = { groups: 0, rows: 0, augmented: 0, original: 0, augmentSkipped: 0, endedAtReset: 0 };
  const leftOut = new Set<string>();
  const endedAtReset: string[] = [];
  try {
    for (let index = 0; index < episodes; index++) {
      if (options.shard && index % options.shard.count !== options.shard.index) continue;
      const groupRandom = random.fork(`group:${index}`);
      counts.groups++;
      for (let state = 0; state < statesPerGroup; state++) {
        const augmented = groupRandom.fork(`state:${state}`).chance(config.augmentedShare);
        const choice: ResetRequest['harness'] = augmented
          ? {
              augment: config.policy,
              ...(config.severity !== undefined ? { severity: config.severity } : {}),
              variant_index: state,
            }
          : 'original';
        const reset: ResetRequest = {
          seed,
          index,
          harness: choice,
          faults: config.faultRate !== undefined ? { rate: config.faultRate } : null,
        };
        const answer = await service.reset(reset);
        const variantId = answer.info.variant_id;
        for (const id of answer.info.left_out ?? []) leftOut.add(id);
        // An input hook stopped every user message: the episode is over before the policy's first step, and
        // a trainer's rollout loop would step an episode that is done. Counted and named, never a row.
        if (answer.done) {
          counts.endedAtReset++;
          endedAtReset.push(answer.info.entry_id);
          continue;
        }
        // No certified variant for this episode: the server plays the base harness; say so, honestly.
        if (augmented && !variantId) {
          reset.harness = 'original';
          counts.augmentSkipped++;
        }
        if (variantId) reset.variant_id = variantId;
        const group = `${scenario.name}/${answer.info.entry_id}`;
        const base = {
          group,
          scenario: scenario.name,
          episode: { index, id: answer.info.entry_id },
          seed,
          state: variantId ? ('augmented' as const) : ('original' as const),
          ...(variantId ? { variantId } : {}),
          ...(augmented && !variantId && answer.info.augment_skipped
            ? { augmentSkipped: answer.info.augment_skipped }
            : {}),
          reset,
          prompt: answer.observation.messages,
          tools: answer.observation.tools,
        };
        if (variantId) counts.augmented++;
        else counts.original++;
        const id = config.harnessPer === 'group' ? group : `${group}/r${state}`;
        const rollout = config.harnessPer === 'rollout' ? { rollout: state } : {};
        if (config.segments === 'joint') rows.push({ id, ...base, ...rollout, reward: { kind: 'total' } });
        else
          for (const segment of ['tool', 'reply'] as const)
            rows.push({
              id: `${id}/${segment}`,
              ...base,
              group: `${group}/${segment}`,
              ...rollout,
              reward: { kind: 'segment', segment, names: config.segmentRewards[segment] },
            });
      }
    }
  } finally {
    service.close();
  }
  counts.rows = rows.length;
  return { rows, counts, endedAtReset, leftOut: [...leftOut].sort() };
}

/**
 * A row's reward from an episode's named rewards and total, as the shims compute it.
 *
 * @example
 * rowReward({ kind: 'segment', segment: 'reply', names: ['accuracy'] }, { accuracy: 1, toolRationality: 0.5 }, 0.8) // 1
 */
export function rowReward(spec: RlRewardSpec, rewards: Record<string, number>, total: number): number {
  if (spec.kind === 'total') return total;
  const values = (spec.names ?? [])
    .filter((name) => Object.hasOwn(rewards, name))
    .map((name) => rewards[name]!);
  return values.length === 0 ? total : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/**
 * What one trainer's RL export wrote: its files, the rows it holds and the rows it could not hold, counted
 * by reason (`rows + rejected` is every planned row: no row is left out without a word).
 *
 * @example
 * const summary: RlExportSummary = { files: ['out/rl/trl/grpo.jsonl'], rows: 240, rejected: 16, rejects: [{ reason, rows: 16 }] };
 */
export interface RlExportSummary {
  files: string[];
  rows: number;
  rejected: number;
  /** Each reason a row was left out, with how many rows it cost (most first). */
  rejects: Array<{ reason: string; rows: number }>;
}

/** Writes one trainer's RL files; implementations live in src/adapters/trainer (TRL, veRL, OpenRLHF). */
export interface RlExporter {
  format: 'trl' | 'verl' | 'openrlhf';
  describe: string;
  write(
    rows: readonly RlRow[],
    outDir: string,
    options: { envURL: string; groupSize: number },
  ): Promise<RlExportSummary>;
}
