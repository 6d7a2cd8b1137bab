// `hsa bench predict`: answers every bench row with a model behind an OpenAI-compatible endpoint (vLLM,
// SGLang, a hosted API) through `answerBenchRow`, and writes the predictions JSONL that `hsa bench score`
// reads. Rows are answered concurrently and written in order, atomically; a row whose endpoint failed for
// good is a reject with the reason (the other rows are kept, the run exits 1).
import type { Command } from 'commander';
import { createOpenAICompatible } from '../../adapters/openai/index.js';
import { answerBenchRow } from '../../bench/answer-row.js';
import { mapOrdered } from '../../runtime/map-ordered.js';
import { endpointFailures } from '../endpoint-failures.js';
import { boundedNumber, endpointTimeout, finishCommand, nonNegativeInteger, openRowOutputs } from '../io.js';
import { outOption, outputFileOption, prepareOutputFiles, printResult } from '../output.js';
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
  rejects?: string;
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
    .addOption(
      outputFileOption(
        '--rejects <file>',
        'rows whose endpoint failed for good, with the reason (default <out without .jsonl>.rejects.jsonl, written when one did; the run goes on and exits 1)',
      ),
    )
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
      const rejectsFile = options.rejects ?? `${options.out.replace(/\.jsonl$/i, '')}.rejects.jsonl`;
      await prepareOutputFiles({ '--out': options.out, '--rejects': rejectsFile });
      const outputs = await openRowOutputs(options.out, rejectsFile);
      const failures = endpointFailures('row');
      const progress = await createProgress('bench predict', { total: rows.length, unit: 'rows' });
      let done = 0;
      let predicted = 0;
      try {
        for await (const answered of mapOrdered(rows, concurrency, (row) =>
          answerBenchRow(row, model, { request, maxSteps }).then(
            (prediction) => ({ prediction }),
            (error: unknown) => ({ id: row.id, error }),
          ),
        )) {
          if ('error' in answered) {
            const reject = failures.reject(answered.id, answered.error);
            if (!reject) throw answered.error;
            outputs.reject(reject);
          } else {
            await outputs.row(answered.prediction);
            predicted++;
          }
          progress.update(++done);
        }
      } catch (error) {
        progress.done();
        await outputs.abort();
        throw error;
      }
      progress.done();
      await outputs.finish(options.rejects !== undefined);
      const kept = failures.count > 0 || options.rejects !== undefined;
      printResult(
        {
          out: options.out,
          rows: predicted,
          failed: failures.count,
          ...(kept ? { rejects: rejectsFile } : {}),
          model: options.model,
          endpoint: options.endpoint,
        },
        `predicted ${predicted} rows with ${options.model} at ${options.endpoint}${failures.count > 0 ? `; ${failures.count} failed (endpoint)` : ''}\nout: ${options.out}${kept ? `  rejects: ${rejectsFile}` : ''}  (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
      );
      finishCommand({ invalid: failures.count });
    });
}
