// Seeded fault injection for tool calls: timeouts, malformed output and permission errors at a configurable
// rate, so an agent (and the RL policy) meets the failures of a production tool backend. Whether call k of
// an episode fails depends only on (seed, k): reruns, shards and concurrency see the same faults.
import seedrandom from 'seedrandom';
import { HarnessAugmentError } from '../harness/issues.js';
import { type ToolOutcome, type ToolRuntime, toolError } from './tool-runtime.js';

/** The tool faults the runtime can inject. */
export type FaultKind = 'timeout' | 'malformed_output' | 'permission_denied';

/** Seeded tool faults: the rate, the weights of the kinds, and the episode's seed. */
export interface FaultOptions {
  /** Probability in [0, 1] that a registry tool call fails. */
  rate: number;
  /** Relative weights of the fault kinds (default: equal). */
  kinds?: Partial<Record<FaultKind, number>>;
  /** Seed of the episode; the draw for call k uses `${seed}:fault:${k}`. */
  seed: string;
}

const allKinds: FaultKind[] = ['timeout', 'malformed_output', 'permission_denied'];

/**
 * The fault (if any) that call `callIndex` of an episode gets.
 *
 * @example
 * faultFor(3, { rate: 0.2, seed: 'ep-7' }) // undefined, or e.g. 'timeout'
 */
export function faultFor(callIndex: number, options: FaultOptions): FaultKind | undefined {
  const rng = seedrandom(`${options.seed}:fault:${callIndex}`);
  if (rng() >= options.rate) return undefined;
  const weights = allKinds.map((kind) => [kind, options.kinds?.[kind] ?? 1] as const);
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = rng() * total;
  for (const [kind, weight] of weights) {
    roll -= weight;
    if (roll < 0) return kind;
  }
  return weights[weights.length - 1]![0];
}

/**
 * What ends the content of an injected `malformed_output` fault. A text result is not a failure by itself
 * (most MCP tools answer in prose), so the runtime marks its own garbled output to read it back as one.
 *
 * @example
 * const garbled = content.endsWith(MALFORMED_OUTPUT_MARK);
 */
export const MALFORMED_OUTPUT_MARK = '\u0000<upstream response truncated>';

/** Cuts a text in half and marks it, the way a truncated upstream response looks. */
function malformed(content: string): string {
  const cut = Math.max(1, Math.floor(content.length / 2));
  return `${content.slice(0, cut)}${MALFORMED_OUTPUT_MARK}`;
}

/**
 * Wraps a ToolRuntime so that a seeded share of its calls fail. A timeout and a permission error never run
 * the tool; malformed output runs it and garbles the result.
 *
 * @example
 * const tools = withFaults(shopTools, { rate: 0.2, seed: 'sim/42/ep-0007' });
 */
export function withFaults(runtime: ToolRuntime, options: FaultOptions): ToolRuntime {
  const weights = Object.values(options.kinds ?? {});
  if (
    weights.some((weight) => !(weight >= 0)) ||
    (weights.length === allKinds.length && weights.every((weight) => weight === 0))
  )
    throw new HarnessAugmentError('fault kind weights must be ≥ 0 and not all 0', { kind: 'usage' });
  if (!(options.rate >= 0 && options.rate <= 1))
    throw new HarnessAugmentError(`fault rate must be between 0 and 1, got ${options.rate}`, {
      kind: 'usage',
    });
  return {
    async call(request, context): Promise<ToolOutcome> {
      const fault = faultFor(context.callIndex, options);
      switch (fault) {
        case 'timeout':
          return toolError('timeout', `"${request.name}" did not answer in time; try again`);
        case 'permission_denied':
          return toolError(
            'permission_denied',
            `the room's service account may not call "${request.name}" right now`,
          );
        case 'malformed_output': {
          const outcome = await runtime.call(request, context);
          return { content: malformed(outcome.content), error: 'malformed_output' };
        }
        default:
          return runtime.call(request, context);
      }
    },
  };
}
