import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { buildPipelineDependencies } from '../../adapters/pipeline-dependencies.js';
import { defaultQueueName } from '../../adapters/queue/queue-name.js';
import { describeRedisOutage } from '../../adapters/queue/redis-connection.js';
import { loadOperatorModules } from '../../augment/operator-modules.js';
import { loadHookChecks } from '../../harness/hook-check-module.js';
import { HarnessAugmentError, quote } from '../../harness/issues.js';
import { addProtectedInputs, type NamedInput } from '../../harness/output-guard.js';
import { createRunContext } from '../../harness/run-context.js';
import { runFiles } from '../../pipeline/checkpoint.js';
import {
  ExportFormatSchema,
  exportsOf,
  exportTarget,
  loadPipelineConfig,
  type PipelineConfig,
} from '../../pipeline/config.js';
import { releaseRunLocksOnSignals } from '../../pipeline/run-lock.js';
import { runPipeline } from '../../pipeline/run-pipeline.js';
import { parseMaxSteps, withHookChecksOption, withMaxStepsOption } from '../episode-options.js';
import { finishCommand, positiveInteger } from '../io.js';
import { builtinRegistry, withOperatorsOption } from '../operators-registry.js';
import { outOption, outputMode, prepareOutputFolder, printResult, printWarning } from '../output.js';
import { createProgress } from '../progress.js';
import { pipelineScenario } from '../scenario-option.js';
import { parseShard } from '../shard.js';

interface PipelineRunCliOptions {
  resume?: boolean;
  shard?: string;
  out?: string;
  concurrency?: string;
  threads?: string;
  exports?: string;
  queue?: string;
  queueName: string;
  attempts: string;
  connectTimeout: string;
  inlineHarness?: boolean;
  hookChecks?: string;
  operators?: string[];
  maxSteps?: string;
}

export function registerPipeline(program: Command): void {
  const pipeline = program
    .command('pipeline')
    .description('run the training-data pipeline from a YAML config');
  withOperatorsOption(withMaxStepsOption(withHookChecksOption(pipeline.command('run'))))
    .description(
      'base tasks × variants → teacher → certificate/judge → collapsing → trainer exports + manifest',
    )
    .argument('<config>', 'pipeline configuration (YAML or JSON)')
    .option('--resume', 'continue an interrupted run from its checkpoint in the output folder')
    .option(
      '--inline-harness',
      'write whole examples (default: examples name their harness, written once to variants.jsonl)',
    )
    .option(
      '--shard <i/n>',
      'only the tasks whose position modulo n is i (run each shard into its own --out)',
    )
    .addOption(outOption('folder', 'output folder (overrides the config’s `out`)'))
    .option('--concurrency <n>', 'work units in flight at once (overrides the config’s `concurrency`, 1-256)')
    .option(
      '--threads <n|auto>',
      'worker threads that augment the SFT units (overrides the config’s `augment.threads`; 1-256 or auto; never changes the output)',
    )
    .option(
      '--exports <formats>',
      `comma-separated trainer formats (overrides the config’s \`exports\`; options of a format listed there are kept): ${ExportFormatSchema.options.join(', ')}`,
    )
    .option(
      '--queue <url>',
      'run the SFT units as BullMQ jobs on this Redis (redis://host:port) for `hsa worker` processes; the output is the same',
    )
    .option('--queue-name <name>', 'BullMQ queue name (the workers’ --queue-name)', defaultQueueName)
    .option('--attempts <n>', 'with --queue: tries per unit before the run fails (BullMQ attempts)', '3')
    .option(
      '--connect-timeout <ms>',
      'with --queue: how long to wait for Redis before exiting with code 2',
      '5000',
    )
    .action(async (file: string, options: PipelineRunCliOptions) => {
      const started = Date.now();
      const config = await loadPipelineConfig(file);
      if (options.out) config.out = resolve(options.out);
      if (options.concurrency !== undefined)
        config.concurrency = positiveInteger('--concurrency', options.concurrency, 256);
      if (options.threads !== undefined)
        config.augment.threads =
          options.threads === 'auto' ? 'auto' : positiveInteger('--threads', options.threads, 256);
      if (options.exports !== undefined) config.exports = exportsOption(options.exports, config);
      if (options.hookChecks !== undefined) config.hookChecks = resolve(options.hookChecks);
      if (options.operators !== undefined)
        config.operators = [
          ...(config.operators ?? []),
          ...options.operators.map((module) => resolve(module)),
        ];
      const maxSteps = parseMaxSteps(options.maxSteps);
      if (maxSteps !== undefined) config.maxStepsPerTurn = maxSteps;
      const run = createRunContext({ hookChecks: await loadHookChecks(config.hookChecks) });
      // The files the config names are inputs too; what a fresh run clears in its folder holds none.
      await addProtectedInputs(configInputs(config, file));
      await prepareOutputFolder(config.out, { clears: pipelineClearedEntries });
      const shard = parseShard(options.shard);
      const attempts = positiveInteger('--attempts', options.attempts, 100);
      const connectTimeoutMs = positiveInteger('--connect-timeout', options.connectTimeout, 600_000);
      const scenario = await pipelineScenario(config, undefined, run);
      // Units the workers have finished (BullMQ QueueEvents), ahead of those merged in order.
      let finished = 0;
      // BullMQ is loaded only for a queued run (it takes a good part of a second to load).
      const queue = options.queue
        ? await (await import('../../adapters/queue/bullmq-job-queue.js'))
            .createBullJobQueue({
              url: options.queue,
              name: options.queueName,
              attempts,
              connectTimeoutMs,
              onCompleted: () => finished++,
              onRedisOutage: (event) => {
                if (!outputMode().quiet) process.stderr.write(`hsa: ${describeRedisOutage(event)}\n`);
              },
            })
            .catch(async (error: unknown) => {
              await scenario?.close?.();
              throw error;
            })
        : undefined;
      const dependencies = buildPipelineDependencies(config, {
        registry: await builtinRegistry(await loadOperatorModules(config.operators, 'operators')),
        ...(scenario ? { scenario } : {}),
        run,
      });
      const progress = await createProgress('pipeline', { unit: 'units' });
      // Interrupted (Ctrl-C, SIGTERM), the run leaves its folder unlocked; a SIGKILLed run's lock is stale.
      releaseRunLocksOnSignals();
      const manifest = await runPipeline(config, dependencies, {
        onStaleLock: (stale, lockFile) =>
          printWarning(
            `hsa: ${lockFile}: taking over the lock of a run that is gone (pid ${stale.pid} on ${stale.host}, started ${stale.started})`,
          ),
        ...(options.resume ? { resume: true } : {}),
        ...(queue ? { queue } : {}),
        ...(options.inlineHarness ? { inlineHarness: true } : {}),
        ...(shard ? { shard } : {}),
        onProgress: ({ stage, counts, detail }) =>
          progress.update(
            counts.units,
            stage === 'sft'
              ? `${counts.tasks} tasks, ${counts.examples} examples, ${counts.rejected} rejected${queue ? `; ${finished} finished by workers` : ''}`
              : `${stage} ${detail ?? ''}`,
          ),
      }).finally(async () => {
        progress.done();
        await queue?.close();
        await scenario?.close?.();
      });
      const { counts } = manifest;
      const reasons = Object.entries(counts.byReason)
        .map(([reason, n]) => `${reason} ${n}`)
        .join(', ');
      const lines = [
        `tasks: ${counts.tasks}; units: ${counts.units} = ${counts.examples} examples + ${counts.rejected} rejected${reasons ? ` (${reasons})` : ''}`,
        `teachers: ${Object.entries(counts.teachers)
          .map(([name, n]) => `${name} ${n}`)
          .join(', ')}; retry traces collapsed in ${counts.collapsed}, kept whole in ${counts.fullTraces}`,
        ...manifest.files.map((entry) => `${config.out}/${entry.path}  (${entry.bytes} bytes)`),
        ...manifest.exports.map(
          (entry) =>
            `${entry.format.padEnd(13)} ${entry.rows} rows${entry.rejected > 0 ? `, ${entry.rejected} rejected` : ''}: ${entry.files.map((f) => `${config.out}/${f.path}`).join(', ')}`,
        ),
        ...(manifest.bench
          ? [
              `bench         ${manifest.bench.rows} rows: ${manifest.bench.files.map((f) => `${config.out}/${f.path}`).join(', ')}`,
            ]
          : []),
        ...(manifest.opd
          ? [
              `opd           ${manifest.opd.rows.distillation} prompt-only + ${manifest.opd.rows.gkd} GKD rows, teacher ${manifest.opd.teacher}: ${config.out}/opd/`,
            ]
          : []),
        ...(manifest.rl
          ? [
              `rl            ${manifest.rl.counts.rows} rows in ${manifest.rl.counts.groups} groups (${manifest.rl.counts.augmented} augmented, ${manifest.rl.counts.original} original; ${manifest.rl.leftOut.length} operators left out: they change what the hooks enforce${manifest.rl.counts.endedAtReset > 0 ? `; ${manifest.rl.counts.endedAtReset} states left out: an input hook ends the episode at reset` : ''})`,
              ...manifest.rl.formats.flatMap((entry) => [
                `rl/${entry.format.padEnd(10)} ${entry.rows} rows${entry.rejected > 0 ? `, ${entry.rejected} left out (${config.out}/rl/${entry.format}/rejects.jsonl)` : ''}: ${config.out}/rl/${entry.format}/`,
                ...(entry.rejects ?? []).map((reject) => `    ${reject.rows} × ${reject.reason}`),
              ]),
            ]
          : []),
        ...(queue ? [`queue: ${queue.name}`] : []),
        `manifest: ${config.out}/manifest.json  (${((Date.now() - started) / 1000).toFixed(1)} s)`,
      ];
      for (const [name, client] of Object.entries(dependencies.clients)) {
        const stats = client.stats();
        lines.push(`${name} endpoint: ${stats.requests} requests, ${stats.retries} retries`);
      }
      printResult({ out: config.out, manifest }, lines);
      finishCommand({ filtered: { dropped: counts.rejected, kept: counts.examples } });
    });
}

/**
 * `--exports trl,openai`: the exports to write, each named by its format or by the `folder` a configured
 * export has; a configured entry keeps its options.
 */
function exportsOption(text: string, config: PipelineConfig): PipelineConfig['exports'] {
  const configured = exportsOf(config).map(([format, options]) => ({
    format,
    options,
    folder: exportTarget(format, options).folder,
  }));
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) throw new HarnessAugmentError('--exports names no format', { kind: 'usage' });
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined)
    throw new HarnessAugmentError(
      `--exports names ${quote(repeated)} twice; both would write exports/${repeated}`,
      {
        kind: 'usage',
      },
    );
  return names.map((name) => {
    const entry = configured.find((candidate) => candidate.folder === name);
    if (entry)
      return Object.keys(entry.options).length > 0 ? { [entry.format]: entry.options } : entry.format;
    const parsed = ExportFormatSchema.safeParse(name);
    if (!parsed.success)
      throw new HarnessAugmentError(
        `--exports: unknown format ${quote(name)}; one of ${ExportFormatSchema.options.join(', ')}, or the folder of a configured export (${configured.map((candidate) => candidate.folder).join(', ')})`,
        { kind: 'usage' },
      );
    return parsed.data;
  }) as PipelineConfig['exports'];
}

/** What a fresh pipeline run removes in its output folder (../../pipeline/checkpoint.ts, export-stage.ts). */
const pipelineClearedEntries = [...Object.values(runFiles), 'exports', 'bench', 'export-rejects'];

/**
 * Every string of the config, except its output folder, that names an existing file (a folder is left out:
 * a short word of the config may name one by chance, and everything below it would become an input).
 */
function configInputs(config: unknown, file: string): NamedInput[] {
  const inputs: NamedInput[] = [];
  const walk = (value: unknown, path: string): void => {
    if (typeof value === 'string') inputs.push({ label: `${file} ${path}`, path: value });
    else if (Array.isArray(value))
      value.forEach((item, index) => {
        walk(item, `${path}[${index}]`);
      });
    else if (value !== null && typeof value === 'object')
      for (const [key, item] of Object.entries(value))
        if (!(path === '' && key === 'out')) walk(item, path === '' ? key : `${path}.${key}`);
  };
  walk(config, '');
  return inputs.filter((input) => isFile(input.path));
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
