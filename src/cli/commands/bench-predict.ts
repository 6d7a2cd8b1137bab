// `hsa bench predict`: answers every bench row with a model behind an OpenAI-compatible endpoint (vLLM,
// SGLang, a hosted API) through `answerBenchRow`, and writes the predictions JSONL that `hsa bench score`
// reads. Rows are answered concurrently and written in order, atomically.
import type { Command } from 'commander';
import { createOpenAICompatible } from '../../adapters/openai/index.js';
import { answerBenchRow } from '../../bench/answer-row.js';
import { jsonLine } from '../../harness/json-lines.js';
import { mapOrdered } from '../../runtime/map-ordered.js';
import { boundedNumber, endpointTimeout, nonNegativeInteger, openAtomicLines } from '../io.js';
import { outOption, printResult } from '../output.js';
import { createProgress } from '../progress.js';
import { sidecarOptionText } from '../rows.js';
import { readBenchRows } from './bench-score.js';

interface BenchPredictOptions {
  bench: string;
  endpoint: string;
  timeout?: string;
  model: string;
  apiKeyEnv: string;
  temperature?: string;
  maxTokens?: string;
  maxSteps: string;
  concurrency: string;
  out: string;
  sidecar?: string[];
}

export function registerBenchPredict(bench: Command): void {
  bench
    .command('predict')
    .description('answer bench rows with a model behind an OpenAI-compatible endpoint → predictions JSONL')
    .requiredOption('--bench <file>', 'bench rows JSONL (from `hsa bench generate`)')
    .requiredOption('--endpoint <url>', 'OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1')
    .requiredOption('--model <name>', 'model name sent to the endpoint')
    .option(
      '--timeout <seconds>',
      'seconds one model call may take, every retry and wait included (default 60; at most 3600); a call past it fails with its reason',
    )
    .option('--api-key-env <var>', 'environment variable holding the API key', 'OPENAI_API_KEY')
    .option('--temperature <t>', 'sampling temperature')
    .option('--max-tokens <n>', 'max_tokens per completion')
    .option('--max-steps <n>', 'most model calls per row (skill loads and tool calls included)', '8')
    .option('--concurrency <n>', 'rows answered at once', '4')
    .option('--sidecar <files...>', sidecarOptionText)
    .addOption(outOption('file', 'predictions JSONL', { required: true }))
    .action(async (options: BenchPredictOptions) => {
      const started = Date.now();
      const rows = await readBenchRows(options.bench, options.sidecar);
      const apiKey = process.env[options.apiKeyEnv];
      const model = createOpenAICompatible({
        baseURL: options.endpoint,
        ...(apiKey ? { apiKey } : {}),
        ...endpointTimeout(options.timeout),
      });
      const request = {
        model: options.model,
        ...(options.temperature !== undefined
          ? { temperature: boundedNumber('--temperature', options.temperature, { min: 0, max: 2 }) }
          : {}),
        ...(options.maxTokens !== undefined
          ? { max_tokens: nonNegativeInteger('--max-tokens', options.maxTokens) }
          : {}),
      };
      const maxSteps = nonNegativeInteger('--max-steps', options.maxSteps);
      const concurrency = Math.max(1, nonNegativeInteger('--concurrency', options.concurrency));
      const out = await openAtomicLines(options.out);
      const progress = createProgress('bench predict', { total: rows.length, unit: 'rows' });
      let done = 0;
      try {
        for await (const prediction of mapOrdered(rows, concurrency, (row) =>
          answerBenchRow(row, model, { request, maxSteps }),
        )) {
          await out.write(jsonLine(prediction));
          progress.update(++done);
        }
      } catch (error) {
        progress.done();
        await out.abort();
        throw error;
      }
      progress.done();
      await out.commit();
      printResult({ out: options.out, rows: done, model: options.model, endpoint: options.endpoint }, [
        `predicted ${done} rows with ${options.model} at ${options.endpoint}`,
        `out: ${options.out}  (${((Date.now() - started) / 1000).toFixed(1)} s)`,
      ]);
    });
}
