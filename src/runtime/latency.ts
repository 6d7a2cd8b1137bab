// Latency replay: plays a scenario's episodes against a model as production would — the runtime's agent
// loop, the scenario's tools, every hook and retry — with C episodes in flight, and measures each user
// turn end to end (message in → turn over), each model call, the time to its first token when the model
// streams, and the loop's own overhead (turn time not spent in the model). Values go into HDR histograms
// (hdr-histogram-js), in microseconds. The server's own histograms are the adapter's part (/metrics).
import * as hdr from 'hdr-histogram-js';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import { type RunContext, runContextOf } from '../harness/run-context.js';
import type { Harness } from '../harness/schema.js';
import { runTurn } from './agent-loop.js';
import type { ChatCallOptions, ChatCompletion, ChatModel, ChatRequest } from './chat-model.js';
import { Episode } from './episode.js';
import type { PlannedEpisode, Scenario, ScenarioRunContext } from './scenario.js';
import { stepLimitFor, truncatedTurns } from './step-limit.js';

/** A model that can also say when its first token arrived (a streaming client). */
export interface TimedChatModel extends ChatModel {
  completeTimed?(
    request: ChatRequest,
    options?: ChatCallOptions,
  ): Promise<{ completion: ChatCompletion; firstTokenMs?: number }>;
}

/**
 * What `replayLatency` replays: the scenario, harness and timed model, how many episodes and how many at
 * once.
 */
export interface LatencyReplayOptions {
  scenario: Scenario;
  harness: Harness;
  model: TimedChatModel;
  seed?: string;
  /** Episodes to plan (default: the scenario's default count). */
  episodes?: number;
  /** Episodes in flight at once (default 1). */
  concurrency?: number;
  /** Keep replaying the plan, round after round, until this much time has passed; without it, one pass. */
  durationMs?: number;
  /** A turn slower than this misses the deadline (default 15 000 ms). */
  deadlineMs?: number;
  /** Request fields sent with every call (model, temperature, max_tokens…). */
  request?: Omit<ChatRequest, 'messages' | 'tools'>;
  /** Most assistant messages per user turn (default: `stepLimitFor`, at least the gold's longest turn). */
  maxStepsPerTurn?: number;
  /** The custom hook checks the harness names (default: none), when no `run` is given (or the run's own). */
  hookChecks?: HookCheckRegistry | undefined;
  /** The run the episodes belong to (`createRunContext`); default: one of its own, with `hookChecks`. */
  run?: RunContext | undefined;
  signal?: AbortSignal;
  /** Clock in ms (default `performance.now`). */
  now?: () => number;
  /** Told after each episode. */
  onEpisode?: (done: number) => void;
  /** Waits `ms` (default: a timer); the pause after a failed episode goes through it. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * After a failed episode a worker waits before the next one, doubling from 100 ms up to 5 s while
 * failures go on: an endpoint that refuses at once would otherwise be hit in a tight loop for the whole
 * `durationMs`, and the loop would pile up work faster than it is collected.
 */
export const failureBackoff = { initialMs: 100, maxMs: 5_000 } as const;

const timerSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/** Percentiles of one measured quantity, in milliseconds. */
export interface LatencyStats {
  count: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** What `replayLatency` measured: episodes, turns, model calls, wall time, and time per turn and per call. */
export interface LatencyReport {
  scenario: string;
  harness: string;
  episodes: number;
  turns: number;
  modelCalls: number;
  concurrency: number;
  /** Wall-clock time of the replay. */
  wallMs: number;
  deadlineMs: number;
  /** User message in → turn over. */
  turn: LatencyStats;
  /** One model call (request sent → completion assembled). */
  modelCall: LatencyStats;
  /** Request sent → first token, for streaming models. */
  timeToFirstToken?: LatencyStats;
  /** Turn time not spent waiting for the model: tools, hooks, prompt rendering, the loop itself. */
  overheadPerTurn: LatencyStats;
  turnsPerEpisode: { mean: number; min: number; max: number };
  stepsPerTurn: number;
  /** Turns the step limit cut (counted in `turns`; their time is a cut turn's, not a finished one's). */
  truncatedTurns: number;
  /** Share of turns that ended within the deadline. */
  underDeadline: number;
  errors: { episodes: number; messages: string[] };
  /** The inference server's own view, when its /metrics answered (filled in by the caller). */
  server?: Record<string, unknown>;
}

const microseconds = (ms: number) => Math.max(1, Math.round(ms * 1000));

function histogram() {
  return hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 3_600_000_000,
    numberOfSignificantValueDigits: 3,
  });
}

function stats(values: hdr.Histogram): LatencyStats {
  const ms = (value: number) => Number((value / 1000).toFixed(3));
  if (values.totalCount === 0) return { count: 0, mean: 0, p50: 0, p95: 0, p99: 0, max: 0 };
  return {
    count: values.totalCount,
    mean: ms(values.mean),
    p50: ms(values.getValueAtPercentile(50)),
    p95: ms(values.getValueAtPercentile(95)),
    p99: ms(values.getValueAtPercentile(99)),
    max: ms(values.maxValue),
  };
}

/**
 * Replays a scenario's episodes against a model and reports the latency a user would see. Every episode
 * plays in one run, the one given; given both `run` and `hookChecks`, they must be the run's own, else a
 * usage error before any episode.
 *
 * @example
 * const report = await replayLatency({ scenario, harness, model: client, concurrency: 8, durationMs: 60_000 });
 * report.turn.p95 // ms
 * await replayLatency({ scenario, harness, model: client, run: createRunContext({ hookChecks }) });
 */
export async function replayLatency(options: LatencyReplayOptions): Promise<LatencyReport> {
  const run = runContextOf(options.run, options.hookChecks);
  const now = options.now ?? (() => performance.now());
  const deadlineMs = options.deadlineMs ?? 15_000;
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const context: ScenarioRunContext = { base: options.harness, seed: options.seed ?? '0' };
  const planned: readonly PlannedEpisode[] = await options.scenario.plan({
    ...context,
    ...(options.episodes !== undefined ? { episodes: options.episodes } : {}),
  });
  const turnHistogram = histogram();
  const callHistogram = histogram();
  const firstTokenHistogram = histogram();
  const overheadHistogram = histogram();
  const turnsPerEpisode: number[] = [];
  let turns = 0;
  let underDeadline = 0;
  let truncated = 0;
  let errorEpisodes = 0;
  const errorMessages: string[] = [];
  const started = now();
  let next = 0;
  let done = 0;

  const takeIndex = (): number | undefined => {
    if (planned.length === 0) return undefined;
    if (options.durationMs === undefined) return next < planned.length ? next++ : undefined;
    return now() - started < options.durationMs ? next++ % planned.length : undefined;
  };

  async function play(entry: PlannedEpisode): Promise<void> {
    const episodeData = await options.scenario.episode(entry, context);
    const backend = await options.scenario.backend(episodeData, context);
    const firstTokens: number[] = [];
    const model: ChatModel = {
      async complete(request, callOptions) {
        if (!options.model.completeTimed) return options.model.complete(request, callOptions);
        const { completion, firstTokenMs } = await options.model.completeTimed(request, callOptions);
        if (firstTokenMs !== undefined) firstTokens.push(firstTokenMs);
        return completion;
      },
    };
    const episode = new Episode({
      harness: options.harness,
      context: episodeData.context,
      tools: { call: (request, callContext) => backend.call(request, callContext) },
      maxStepsPerTurn: stepLimitFor(options.maxStepsPerTurn, episodeData.gold),
      run,
    });
    let played = 0;
    try {
      for (const turn of episodeData.task.turns) {
        options.signal?.throwIfAborted();
        const turnStarted = now();
        await episode.user(turn.user);
        const steps = episode.turnOpen
          ? await runTurn(episode, model, options.request ?? {}, options.signal)
          : [];
        const turnMs = now() - turnStarted;
        const modelMs = steps.reduce((sum, step) => sum + step.modelMs, 0);
        turnHistogram.recordValue(microseconds(turnMs));
        overheadHistogram.recordValue(microseconds(Math.max(0, turnMs - modelMs)));
        for (const step of steps) callHistogram.recordValue(microseconds(step.modelMs));
        turns++;
        played++;
        if (turnMs <= deadlineMs) underDeadline++;
      }
      for (const ms of firstTokens) firstTokenHistogram.recordValue(microseconds(ms));
      turnsPerEpisode.push(played);
      truncated += truncatedTurns(episode.turnEnds).length;
    } finally {
      episode.close();
      await backend.close?.();
    }
  }

  const sleep = options.sleep ?? timerSleep;
  async function worker(): Promise<void> {
    let failures = 0;
    for (let index = takeIndex(); index !== undefined; index = takeIndex()) {
      try {
        await play(planned[index]!);
        failures = 0;
      } catch (error) {
        if (options.signal?.aborted) throw error;
        errorEpisodes++;
        const message = error instanceof Error ? error.message : String(error);
        if (errorMessages.length < 5 && !errorMessages.includes(message)) errorMessages.push(message);
        failures++;
      }
      options.onEpisode?.(++done);
      if (failures > 0 && options.durationMs !== undefined)
        await sleep(
          Math.min(failureBackoff.maxMs, failureBackoff.initialMs * 2 ** (failures - 1)),
          options.signal,
        );
    }
  }

  await Promise.all(Array.from({ length: concurrency }, () => worker()));
  const wallMs = now() - started;
  const episodes = turnsPerEpisode.length;
  return {
    scenario: options.scenario.name,
    harness: options.harness.id,
    episodes,
    turns,
    modelCalls: callHistogram.totalCount,
    concurrency,
    wallMs: Number(wallMs.toFixed(1)),
    deadlineMs,
    turn: stats(turnHistogram),
    modelCall: stats(callHistogram),
    ...(firstTokenHistogram.totalCount > 0 ? { timeToFirstToken: stats(firstTokenHistogram) } : {}),
    overheadPerTurn: stats(overheadHistogram),
    turnsPerEpisode: {
      mean: episodes === 0 ? 0 : Number((turns / episodes).toFixed(3)),
      min: episodes === 0 ? 0 : Math.min(...turnsPerEpisode),
      max: episodes === 0 ? 0 : Math.max(...turnsPerEpisode),
    },
    stepsPerTurn: turns === 0 ? 0 : Number((callHistogram.totalCount / turns).toFixed(3)),
    truncatedTurns: truncated,
    underDeadline: turns === 0 ? 0 : Number((underDeadline / turns).toFixed(4)),
    errors: { episodes: errorEpisodes, messages: errorMessages },
  };
}
