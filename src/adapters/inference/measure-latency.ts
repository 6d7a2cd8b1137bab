// Latency of a served model on a scenario, as `hsa latency` measures it: the runtime's replay with a
// streaming client (so each call has a time to first token), and the server's own histograms from
// /metrics scraped before and after, so they cover this replay's requests only (best effort: a server
// without /metrics leaves them out).
import { runContextOf } from '../../harness/run-context.js';
import type { Harness } from '../../harness/schema.js';
import type { ChatRequest } from '../../runtime/chat-model.js';
import { type LatencyReplayOptions, type LatencyReport, replayLatency } from '../../runtime/latency.js';
import type { Scenario } from '../../runtime/scenario.js';
import { createOpenAICompatible } from '../openai/client.js';
import { createInferenceClient } from './client.js';
import { diffServerMetrics, type ServerMetrics, summarizeHistogram } from './metrics.js';
import { timedChatModel } from './timed-model.js';

export interface MeasureLatencyOptions
  extends Pick<LatencyReplayOptions, 'maxStepsPerTurn' | 'hookChecks' | 'run'> {
  /** The OpenAI-compatible root, e.g. `http://127.0.0.1:8000/v1`. */
  endpoint: string;
  model: string;
  apiKey?: string;
  scenario: Scenario;
  harness: Harness;
  seed?: string;
  episodes?: number;
  concurrency?: number;
  durationMs?: number;
  deadlineMs?: number;
  request?: Omit<ChatRequest, 'messages' | 'tools' | 'model'>;
  /** How long one model call may take, in ms (default: the client's 60 s); calls are not retried. */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
  onEpisode?: (done: number) => void;
  signal?: AbortSignal;
}

async function scrape(client: ReturnType<typeof createInferenceClient>): Promise<ServerMetrics | undefined> {
  try {
    const metrics = await client.metrics({ signal: AbortSignal.timeout(5000) });
    return metrics.engine === 'unknown' ? undefined : metrics;
  } catch {
    return undefined;
  }
}

function serverSummary(metrics: ServerMetrics): Record<string, unknown> {
  const seconds = (histogram: ServerMetrics['timeToFirstToken']) => {
    if (!histogram || histogram.count <= 0) return undefined;
    const summary = summarizeHistogram(histogram);
    const ms = (value: number) => Number((value * 1000).toFixed(2));
    return {
      metric: summary.metric,
      count: summary.count,
      meanMs: ms(summary.mean),
      p50Ms: ms(summary.p50),
      p95Ms: ms(summary.p95),
      p99Ms: ms(summary.p99),
    };
  };
  const result: Record<string, unknown> = { engine: metrics.engine };
  const ttft = seconds(metrics.timeToFirstToken);
  const interToken = seconds(metrics.interToken);
  const endToEnd = seconds(metrics.endToEnd);
  if (ttft) result.timeToFirstToken = ttft;
  if (interToken) result.interToken = interToken;
  if (endToEnd) result.endToEnd = endToEnd;
  if (metrics.specDecode) result.specDecode = metrics.specDecode;
  return result;
}

/**
 * Replays a scenario against a served model and reports client-side and server-side latency. The episodes
 * play in the run given (`run`); given both `run` and `hookChecks`, they must be the run's own.
 *
 * @example
 * const report = await measureLatency({ endpoint: 'http://127.0.0.1:8000/v1', model: 'agent', scenario, harness, concurrency: 8, durationMs: 60_000 });
 * // In a run of your own (its hook checks):
 * await measureLatency({ endpoint, model: 'agent', scenario, harness, run: createRunContext({ hookChecks }) });
 */
export async function measureLatency(options: MeasureLatencyOptions): Promise<LatencyReport> {
  // Refuses a run given with hook checks not its own before any request.
  const run = runContextOf(options.run, options.hookChecks);
  const client = createInferenceClient({
    engine: 'vllm',
    baseURL: options.endpoint,
    model: options.model,
    maxRetries: 0,
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  const chat = createOpenAICompatible({
    baseURL: `${client.root}/v1`,
    model: options.model,
    maxRetries: 0,
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    // One attempt per call: its timeout is the call's deadline too (which would otherwise cap it at 60 s).
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs, deadlineMs: options.timeoutMs } : {}),
  });
  const before = await scrape(client);
  const report = await replayLatency({
    scenario: options.scenario,
    harness: options.harness,
    model: timedChatModel(chat),
    request: { model: options.model, ...options.request },
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.episodes !== undefined ? { episodes: options.episodes } : {}),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.durationMs !== undefined ? { durationMs: options.durationMs } : {}),
    ...(options.deadlineMs !== undefined ? { deadlineMs: options.deadlineMs } : {}),
    ...(options.onEpisode ? { onEpisode: options.onEpisode } : {}),
    ...(options.maxStepsPerTurn !== undefined ? { maxStepsPerTurn: options.maxStepsPerTurn } : {}),
    run,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const after = before ? await scrape(client) : undefined;
  if (before && after) report.server = serverSummary(diffServerMetrics(before, after));
  return report;
}
