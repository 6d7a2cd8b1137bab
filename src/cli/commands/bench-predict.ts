// `hsa bench predict`: answers every bench row with a model behind an OpenAI-compatible endpoint (vLLM,
// SGLang, a hosted API) through `answerBenchRow`, and writes the predictions JSONL that `hsa bench score`
// reads. Rows are answered concurrently and written in order, atomically; a row whose endpoint failed for
// good is a reject with the reason (the other rows are kept, the run exits 1). `--player` answers them with
// a scripted player instead (../../bench/scripted-predictions.ts), to score a bench before a model does.
import type { Command } from 'commander';
import { createOpenAICompatible } from '../../adapters/openai/index.js';
import { answerBenchRow } from '../../bench/answer-row.js';
import type { BenchRow } from '../../bench/schema.js';
import {
  type ScriptedPlayer,
  scriptedPlayers,
  scriptedPredictions,
} from '../../bench/scripted-predictions.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import { jsonLines } from '../../harness/json-lines.js';
import { writeFileAtomic } from '../../harness/write-file-atomic.js';
import { mapOrdered } from '../../runtime/map-ordered.js';
import { endpointFailures } from '../endpoint-failures.js';
import { boundedNumber, endpointTimeout, finishCommand, nonNegativeInteger, openRowOutputs } from '../io.js';
import {
  outOption,
  outputFileOption,
  prepareOutputFile,
  prepareOutputFiles,
  printResult,
} from '../output.js';
import { createProgress } from '../progress.js';
import { sidecarOptionText } from '../rows.js';
import { readBenchRows } from './bench-score.js';

interface BenchPredictOptions {
  bench: string;
  endpoint?: string;
  player?: string;
  timeout?: string;
  model?: string;
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
    .description(
      'answer bench rows with a model behind an OpenAI-compatible endpoint (or a scripted player) → predictions JSONL',
    )
    .requiredOption('--bench <file>', 'bench rows JSONL (from `hsa bench generate`)')
    .option('--endpoint <url>', 'OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1 (with --model)')
    .option('--model <name>', 'model name sent to the endpoint')
    .option(
      '--player <name>',
      `a scripted player instead of a model: ${scriptedPlayers.join(' or ')} (expected: every row answered as it expects; base-names: every row answered as its original row expects, in the base names)`,
    )
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
      if (options.player !== undefined) return predictScripted(options, started);
      if (options.endpoint === undefined || options.model === undefined)
        throw new HarnessAugmentError('give --endpoint and --model, or --player', { kind: 'usage' });
      const { endpoint, model: modelName } = options;
      const rows = await readBenchRows(options.bench, options.sidecar);
      const apiKey = process.env[options.apiKeyEnv];
      const model = createOpenAICompatible({
        baseURL: endpoint,
        ...(apiKey ? { apiKey } : {}),
        ...endpointTimeout(options.timeout),
      });
      const request = {
        model: modelName,
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
          model: modelName,
          endpoint,
        },
        `predicted ${predicted} rows with ${modelName} at ${endpoint}${failures.count > 0 ? `; ${failures.count} failed (endpoint)` : ''}\nout: ${options.out}${kept ? `  rejects: ${rejectsFile}` : ''}  (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
      );
      finishCommand({ invalid: failures.count });
    });
}

/** `--player`: every row answered by a scripted player, written in bench order. */
async function predictScripted(options: BenchPredictOptions, started: number): Promise<void> {
  const player = options.player as ScriptedPlayer;
  if (!(scriptedPlayers as readonly string[]).includes(player))
    throw new HarnessAugmentError(
      `--player must be ${scriptedPlayers.join(' or ')}, got "${options.player}"`,
      {
        kind: 'usage',
      },
    );
  if (options.endpoint !== undefined || options.model !== undefined)
    throw new HarnessAugmentError('--player answers without a model: leave out --endpoint and --model', {
      kind: 'usage',
    });
  await prepareOutputFile(options.out);
  const rows: BenchRow[] = await readBenchRows(options.bench, options.sidecar);
  const predictions = scriptedPredictions(rows, player);
  await writeFileAtomic(options.out, jsonLines(predictions));
  printResult(
    { out: options.out, rows: predictions.length, failed: 0, player },
    `predicted ${predictions.length} rows with the ${player} player\nout: ${options.out}  (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
  );
}
