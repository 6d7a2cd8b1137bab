// `hsa worker --queue redis://…`: runs the SFT units that `hsa pipeline run --queue` enqueues, on any
// number of machines. Each job carries its run's configuration (paths absolute); the worker reads those
// files on its own machine and refuses a job whose run hash they do not give. Stops cleanly on SIGINT or
// SIGTERM (running jobs finish first); a killed worker's jobs come back to the queue through BullMQ.
import type { Command } from 'commander';
import { buildPipelineDependencies } from '../../adapters/pipeline-dependencies.js';
import { defaultQueueName } from '../../adapters/queue/queue-name.js';
import { describeRedisOutage } from '../../adapters/queue/redis-connection.js';
import { loadOperatorModules } from '../../augment/operator-modules.js';
import { loadHookChecks } from '../../harness/hook-check-module.js';
import { createRunContext } from '../../harness/run-context.js';
import { createUnitProcessor } from '../../pipeline/unit-processor.js';
import { positiveInteger } from '../io.js';
import { builtinRegistry } from '../operators-registry.js';
import { outputMode } from '../output.js';
import { pipelineScenario } from '../scenario-option.js';
import { untilSignal } from '../until-signal.js';

interface WorkerCliOptions {
  queue: string;
  queueName: string;
  concurrency: string;
  lockDuration?: string;
  stalledInterval?: string;
  maxStalledCount?: string;
  connectTimeout: string;
}

const milliseconds = (name: string, text: string | undefined) =>
  text === undefined ? undefined : positiveInteger(name, text, 86_400_000);

/**
 * Registers `hsa worker`.
 *
 * @example
 * registerWorker(program); // hsa worker --queue redis://127.0.0.1:6379 --concurrency 4
 */
export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description(
      'run the SFT units that `hsa pipeline run --queue` puts on a BullMQ queue (start any number, on any machine)',
    )
    .requiredOption('--queue <url>', 'Redis URL of the queue, e.g. redis://127.0.0.1:6379')
    .option('--queue-name <name>', 'BullMQ queue name (the coordinator’s --queue-name)', defaultQueueName)
    .option('--concurrency <n>', 'jobs this worker runs at once (1-256)', '1')
    .option(
      '--lock-duration <ms>',
      'BullMQ lockDuration: a job whose worker stops renewing its lock for this long is stalled (default 30000)',
    )
    .option(
      '--stalled-interval <ms>',
      'BullMQ stalledInterval: how often to move stalled jobs (a killed worker’s) back to the queue (default 30000)',
    )
    .option(
      '--max-stalled-count <n>',
      'BullMQ maxStalledCount: stalls a job may have before it fails (default 1)',
    )
    .option(
      '--connect-timeout <ms>',
      'how long to wait for Redis at start before exiting with code 2',
      '5000',
    )
    .addHelpText(
      'after',
      `
Each job carries its run's configuration with absolute paths: every worker machine needs the harness,
inputs and policy files at those paths (a shared volume, or the same checkout). A worker whose files give
another run hash than the job's fails that job with the reason. Results go back to Redis; the coordinator
merges them in unit order into the same bytes as \`hsa pipeline run\` without --queue.
See docs/pipeline.md, "Scale-out on Redis (BullMQ)".`,
    )
    .action(async (options: WorkerCliOptions) => {
      const processor = createUnitProcessor({
        dependencies: async (config) => {
          // The job's configuration names the run's custom hook checks (an absolute path), as the coordinator's does.
          const run = createRunContext({ hookChecks: await loadHookChecks(config.hookChecks) });
          const scenario = await pipelineScenario(config, undefined, run);
          // Likewise its third-party operators (`operators`, absolute paths): they join the built-ins.
          const registry = await builtinRegistry(await loadOperatorModules(config.operators, 'operators'));
          return buildPipelineDependencies(config, {
            registry,
            ...(scenario ? { scenario } : {}),
            run,
          });
        },
      });
      const log = (line: string) => {
        if (!outputMode().quiet) process.stderr.write(`${line}\n`);
      };
      const lockDuration = milliseconds('--lock-duration', options.lockDuration);
      const stalledInterval = milliseconds('--stalled-interval', options.stalledInterval);
      const maxStalledCount =
        options.maxStalledCount === undefined
          ? undefined
          : positiveInteger('--max-stalled-count', options.maxStalledCount, 1000);
      const stopped = untilSignal();
      const { startBullUnitWorker } = await import('../../adapters/queue/bullmq-worker.js');
      const worker = await startBullUnitWorker({
        url: options.queue,
        name: options.queueName,
        concurrency: positiveInteger('--concurrency', options.concurrency, 256),
        connectTimeoutMs: positiveInteger('--connect-timeout', options.connectTimeout, 600_000),
        ...(lockDuration !== undefined ? { lockDuration } : {}),
        ...(stalledInterval !== undefined ? { stalledInterval } : {}),
        ...(maxStalledCount !== undefined ? { maxStalledCount } : {}),
        process: processor.process,
        onJob: ({ id, state, reason }) => {
          if (state === 'failed') log(`hsa worker: job ${id} failed: ${reason}`);
        },
        onRedisOutage: (event) => log(`hsa worker: ${describeRedisOutage(event)}`),
      });
      log(`hsa worker ${worker.name}: waiting for jobs on ${options.queueName}`);
      const signal = await stopped;
      log(`hsa worker ${worker.name}: ${signal}, finishing the running jobs`);
      const clean = await worker.close();
      await processor.close();
      if (!clean)
        log(
          `hsa worker ${worker.name}: Redis did not answer; its running jobs come back to the queue as stalled`,
        );
      // BullMQ may keep retrying timers after dropped connections; nothing of ours is left to finish.
      setTimeout(() => process.exit(), 100).unref();
    });
}
