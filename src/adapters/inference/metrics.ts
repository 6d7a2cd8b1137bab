// Reads an inference server's Prometheus `/metrics`: the time-to-first-token, inter-token and end-to-end
// latency histograms and the speculative-decoding counters, for vLLM or SGLang. The text is parsed by
// parse-prometheus-text-format; its histogram grouping drops labels, so histograms are read from their
// `_bucket` / `_sum` / `_count` samples and summed over label sets (one per model or engine) here.
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { sglangMetricNames } from './sglang.js';
import type { InferenceEngine } from './tool-parsers.js';
import { vllmMetricNames } from './vllm.js';

/** A cumulative histogram: counts of observations at or below each bound (`+Inf` last). */
export interface Histogram {
  metric: string;
  buckets: Array<{ le: number; count: number }>;
  count: number;
  sum: number;
}

/** What a histogram says, in seconds; quantiles are interpolated within buckets as Prometheus does. */
export interface HistogramSummary {
  metric: string;
  count: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
}

export interface SpecDecodeMetrics {
  drafts?: number;
  draftTokens?: number;
  acceptedTokens?: number;
  /** Accepted / proposed draft tokens. */
  acceptanceRate?: number;
  /** SGLang: mean tokens accepted per verification step. */
  acceptLength?: number;
}

/** One scrape of a server's metrics. */
export interface ServerMetrics {
  engine: InferenceEngine | 'unknown';
  timeToFirstToken?: Histogram;
  interToken?: Histogram;
  endToEnd?: Histogram;
  specDecode?: SpecDecodeMetrics;
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function samplesOf(text: string): Sample[] {
  // Without TYPE lines every sample line is its own untyped family, labels kept.
  const untyped = text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('# TYPE'))
    .join('\n');
  // The parser drops the last sample of a text that does not end with a newline.
  const families = parsePrometheusTextFormat(`${untyped}\n`);
  return families.flatMap((family) =>
    family.metrics.map((metric) => ({
      name: family.name,
      labels: metric.labels ?? {},
      value: Number(metric.value),
    })),
  );
}

function histogram(samples: readonly Sample[], names: readonly string[]): Histogram | undefined {
  for (const metric of names) {
    const bucketSamples = samples.filter((sample) => sample.name === `${metric}_bucket`);
    if (bucketSamples.length === 0) continue;
    const byBound = new Map<number, number>();
    for (const sample of bucketSamples) {
      const bound = sample.labels.le === '+Inf' ? Number.POSITIVE_INFINITY : Number(sample.labels.le);
      byBound.set(bound, (byBound.get(bound) ?? 0) + sample.value);
    }
    const total = (suffix: string) =>
      samples
        .filter((sample) => sample.name === `${metric}${suffix}`)
        .reduce((sum, sample) => sum + sample.value, 0);
    const buckets = [...byBound.entries()].sort(([a], [b]) => a - b).map(([le, count]) => ({ le, count }));
    return { metric, buckets, count: total('_count'), sum: total('_sum') };
  }
  return undefined;
}

function counter(samples: readonly Sample[], names: readonly string[]): number | undefined {
  for (const name of names) {
    const matching = samples.filter((sample) => sample.name === name);
    if (matching.length > 0) return matching.reduce((sum, sample) => sum + sample.value, 0);
  }
  return undefined;
}

function gaugeMean(samples: readonly Sample[], names: readonly string[]): number | undefined {
  for (const name of names) {
    const matching = samples.filter((sample) => sample.name === name);
    if (matching.length > 0) return matching.reduce((sum, sample) => sum + sample.value, 0) / matching.length;
  }
  return undefined;
}

/**
 * Parses a `/metrics` text of vLLM or SGLang (detected from the metric prefix).
 *
 * @example
 * const metrics = parseServerMetrics(await (await fetch(serve.metricsURL)).text());
 * summarizeHistogram(metrics.timeToFirstToken!).p95
 */
export function parseServerMetrics(text: string): ServerMetrics {
  const samples = samplesOf(text);
  const engine = samples.some((sample) => sample.name.startsWith('vllm:'))
    ? 'vllm'
    : samples.some((sample) => sample.name.startsWith('sglang:'))
      ? 'sglang'
      : 'unknown';
  const result: ServerMetrics = { engine };
  if (engine === 'unknown') return result;
  const names = engine === 'vllm' ? vllmMetricNames : sglangMetricNames;
  const ttft = histogram(samples, names.timeToFirstToken);
  const interToken = histogram(samples, names.interToken);
  const endToEnd = histogram(samples, names.endToEnd);
  if (ttft) result.timeToFirstToken = ttft;
  if (interToken) result.interToken = interToken;
  if (endToEnd) result.endToEnd = endToEnd;
  const spec: SpecDecodeMetrics = {};
  if (engine === 'vllm') {
    const drafts = counter(samples, vllmMetricNames.specDrafts);
    const draftTokens = counter(samples, vllmMetricNames.specDraftTokens);
    const accepted = counter(samples, vllmMetricNames.specAcceptedTokens);
    if (drafts !== undefined) spec.drafts = drafts;
    if (draftTokens !== undefined) spec.draftTokens = draftTokens;
    if (accepted !== undefined) spec.acceptedTokens = accepted;
  } else {
    const length = gaugeMean(samples, sglangMetricNames.specAcceptLength);
    if (length !== undefined) spec.acceptLength = length;
  }
  if (spec.draftTokens !== undefined && spec.acceptedTokens !== undefined && spec.draftTokens > 0)
    spec.acceptanceRate = spec.acceptedTokens / spec.draftTokens;
  if (Object.keys(spec).length > 0) result.specDecode = spec;
  return result;
}

/**
 * What happened between two scrapes of the same server (counts and counters subtracted), so a report
 * covers only its own requests.
 *
 * @example
 * const during = diffServerMetrics(before, after);
 */
export function diffServerMetrics(before: ServerMetrics, after: ServerMetrics): ServerMetrics {
  const minus = (later?: Histogram, earlier?: Histogram): Histogram | undefined => {
    if (!later) return undefined;
    if (!earlier) return later;
    const earlierCount = new Map(earlier.buckets.map((bucket) => [bucket.le, bucket.count]));
    return {
      metric: later.metric,
      buckets: later.buckets.map((bucket) => ({
        le: bucket.le,
        count: bucket.count - (earlierCount.get(bucket.le) ?? 0),
      })),
      count: later.count - earlier.count,
      sum: later.sum - earlier.sum,
    };
  };
  const result: ServerMetrics = { engine: after.engine };
  const ttft = minus(after.timeToFirstToken, before.timeToFirstToken);
  const interToken = minus(after.interToken, before.interToken);
  const endToEnd = minus(after.endToEnd, before.endToEnd);
  if (ttft) result.timeToFirstToken = ttft;
  if (interToken) result.interToken = interToken;
  if (endToEnd) result.endToEnd = endToEnd;
  if (after.specDecode) {
    const spec: SpecDecodeMetrics = {};
    for (const key of ['drafts', 'draftTokens', 'acceptedTokens'] as const) {
      const value = after.specDecode[key];
      if (value !== undefined) spec[key] = value - (before.specDecode?.[key] ?? 0);
    }
    if (after.specDecode.acceptLength !== undefined) spec.acceptLength = after.specDecode.acceptLength;
    if (spec.draftTokens && spec.acceptedTokens !== undefined)
      spec.acceptanceRate = spec.acceptedTokens / spec.draftTokens;
    result.specDecode = spec;
  }
  return result;
}

/** The bound-interpolated quantile of a cumulative histogram (Prometheus's `histogram_quantile`). */
function quantile(histogram: Histogram, q: number): number {
  const total = histogram.buckets.at(-1)?.count ?? 0;
  if (total <= 0) return Number.NaN;
  const rank = q * total;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const bucket of histogram.buckets) {
    if (bucket.count >= rank) {
      // The open top bucket: report the highest finite bound.
      if (!Number.isFinite(bucket.le)) return lowerBound;
      const inBucket = bucket.count - lowerCount;
      return inBucket <= 0
        ? bucket.le
        : lowerBound + ((bucket.le - lowerBound) * (rank - lowerCount)) / inBucket;
    }
    lowerBound = bucket.le;
    lowerCount = bucket.count;
  }
  return lowerBound;
}

/**
 * Count, mean and interpolated P50/P95/P99 of a histogram, in its unit (seconds for the engines).
 *
 * @example
 * summarizeHistogram(metrics.endToEnd!) // { metric: 'vllm:e2e_request_latency_seconds', count: 40, mean: 1.2, p50: 1.1, … }
 */
export function summarizeHistogram(histogram: Histogram): HistogramSummary {
  return {
    metric: histogram.metric,
    count: histogram.count,
    mean: histogram.count > 0 ? histogram.sum / histogram.count : Number.NaN,
    p50: quantile(histogram, 0.5),
    p95: quantile(histogram, 0.95),
    p99: quantile(histogram, 0.99),
  };
}
