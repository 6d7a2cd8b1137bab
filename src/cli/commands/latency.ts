// `hsa latency`: replays a scenario's episodes against a served model (the runtime's loop, tools and
// hooks) at a concurrency, and writes the latency report as JSON, Markdown and offline HTML.
import { join } from 'node:path';
import type { Command } from 'commander';
import { measureLatency } from '../../adapters/inference/measure-latency.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import { renderLatencyHtml, renderLatencyMarkdown } from '../../runtime/latency-report.js';
import { harnessWithChecks, parseMaxSteps } from '../episode-options.js';
import { boundedNumber, endpointTimeout, nonNegativeInteger, optionBounds, writeFileAtomic } from '../io.js';
import { outOption, outputMode, prepareOutputFolder, printResult } from '../output.js';
import { type ScenarioCliOptions, scenarioFromOptions, withScenarioOptions } from '../scenario-option.js';

interface LatencyOptions extends ScenarioCliOptions {
  endpoint: string;
  model: string;
  harness: string;
  apiKeyEnv: string;
  concurrency: string;
  duration?: string;
  episodes?: string;
  deadline: string;
  timeout?: string;
  seed?: string;
  maxTokens?: string;
  temperature?: string;
  out: string;
}

/**
 * Registers `hsa latency`.
 *
 * @example
 * registerLatency(program); // hsa latency --endpoint http://127.0.0.1:8000/v1 --model agent --harness h.yaml --scenario livestream
 */
export function registerLatency(program: Command): void {
  const command = program
    .command('latency')
    .description(
      'replay full agent episodes against a served model and report P50/P95/P99, TTFT and the deadline share',
    )
    .requiredOption('--endpoint <url>', 'OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1')
    .requiredOption('--model <name>', 'model name sent to the endpoint')
    .requiredOption('--harness <file>', 'base harness');
  withScenarioOptions(command)
    .option('--api-key-env <var>', 'environment variable holding the API key', 'OPENAI_API_KEY')
    .option('--concurrency <n>', 'episodes in flight at once', '1')
    .option(
      '--duration <seconds>',
      'replay the plan round after round for this long, at most 86400 (default: one pass); after a failed episode each worker waits 0.1 s, doubling to 5 s while failures go on',
    )
    .option('--episodes <n>', "episodes to plan (default: the scenario's own count)")
    .option('--deadline <seconds>', 'a turn slower than this misses the deadline', '15')
    .option(
      '--timeout <seconds>',
      'seconds one model call may take (default 60; at most 3600; no retries here); a call past it fails its episode with the reason',
    )
    .option('--seed <seed>', "plan seed (default: the scenario's own seed)")
    .option('--max-tokens <n>', 'max_tokens per call')
    .option('--temperature <t>', 'sampling temperature')
    .addOption(
      outOption('folder', 'where latency.json, latency.md and latency.html go').default('out/latency'),
    )
    .action(async (options: LatencyOptions) => {
      const concurrency = nonNegativeInteger('--concurrency', options.concurrency, 256);
      if (concurrency < 1)
        throw new HarnessAugmentError('--concurrency must be at least 1', { kind: 'usage' });
      const deadlineMs =
        boundedNumber('--deadline', options.deadline, { max: optionBounds.requestSeconds }) * 1000;
      const durationMs =
        options.duration !== undefined
          ? boundedNumber('--duration', options.duration, { max: optionBounds.durationSeconds }) * 1000
          : undefined;
      const episodes =
        options.episodes !== undefined ? nonNegativeInteger('--episodes', options.episodes) : undefined;
      const maxStepsPerTurn = parseMaxSteps(options.maxSteps);
      const { timeoutMs } = endpointTimeout(options.timeout);
      await prepareOutputFolder(options.out, { writes: ['latency.json', 'latency.md', 'latency.html'] });
      const { harness, run } = await harnessWithChecks(options.harness, options.hookChecks);
      const scenario = await scenarioFromOptions(options, harness, options.harness, run);
      const apiKey = process.env[options.apiKeyEnv];
      try {
        const report = await measureLatency({
          ...(timeoutMs !== undefined ? { timeoutMs } : {}),
          endpoint: options.endpoint,
          model: options.model,
          scenario,
          harness,
          concurrency,
          deadlineMs,
          run,
          ...(maxStepsPerTurn !== undefined ? { maxStepsPerTurn } : {}),
          ...(apiKey ? { apiKey } : {}),
          ...(durationMs !== undefined ? { durationMs } : {}),
          ...(episodes !== undefined ? { episodes } : {}),
          ...(options.seed !== undefined
            ? { seed: options.seed }
            : scenario.seed
              ? { seed: scenario.seed }
              : {}),
          request: {
            ...(options.maxTokens !== undefined
              ? { max_tokens: nonNegativeInteger('--max-tokens', options.maxTokens) }
              : {}),
            ...(options.temperature !== undefined
              ? { temperature: boundedNumber('--temperature', options.temperature, { min: 0, max: 2 }) }
              : {}),
          },
        });
        const files = {
          json: join(options.out, 'latency.json'),
          markdown: join(options.out, 'latency.md'),
          html: join(options.out, 'latency.html'),
        };
        await writeFileAtomic(files.json, `${JSON.stringify(report, null, 2)}\n`);
        await writeFileAtomic(files.markdown, renderLatencyMarkdown(report));
        await writeFileAtomic(files.html, renderLatencyHtml(report));
        const lines = [
          `${report.episodes} episodes, ${report.turns} turns, ${report.modelCalls} model calls at concurrency ${report.concurrency} in ${(report.wallMs / 1000).toFixed(1)} s`,
          `turn end to end: P50 ${report.turn.p50} ms, P95 ${report.turn.p95} ms, P99 ${report.turn.p99} ms; ${(100 * report.underDeadline).toFixed(1)}% within ${deadlineMs / 1000} s`,
          ...(report.timeToFirstToken
            ? [
                `time to first token: P50 ${report.timeToFirstToken.p50} ms, P95 ${report.timeToFirstToken.p95} ms`,
              ]
            : []),
          ...(report.truncatedTurns > 0
            ? [`${report.truncatedTurns} turns cut at the step limit (raise --max-steps)`]
            : []),
          `server /metrics: ${report.server ? 'read' : 'not available'}`,
          ...(report.errors.episodes > 0
            ? [`${report.errors.episodes} episodes failed: ${report.errors.messages.join('; ')}`]
            : []),
          `written: ${join(options.out, 'latency.json')}, latency.md, latency.html`,
        ];
        const everyFailed = report.episodes === 0 && report.errors.episodes > 0;
        // One JSON document on standard output: with --json, a run whose every episode failed prints the error only.
        if (!(everyFailed && outputMode().json)) printResult({ out: options.out, files, report }, lines);
        if (everyFailed)
          throw new HarnessAugmentError(`every episode failed: ${report.errors.messages[0]}`, {
            kind: 'usage',
          });
      } finally {
        await scenario.close?.();
      }
    });
}
