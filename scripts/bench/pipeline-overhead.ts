// The pipeline's overhead against a loopback OpenAI-compatible endpoint that answers every request after a
// fixed delay: wall time against the ideal (requests ÷ concurrency × delay) and the most requests the server
// ever had in flight at once. Answers are a plain reply, so each unit costs one request per user turn.
//
// The pipeline runs as a user's `hsa pipeline run` does: in a fresh process, bundled as the CLI is built
// (scripts/bench/pipeline-child.ts), with the worker threads' bundle beside it. The endpoint answers from
// this process, as a model server answers from its own: its work is not the pipeline's, and no cache of an
// earlier section of the bench is warm in the run.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startFakeOpenAIServer } from '../../test/support/fake-openai-server.js';
import { bundledWithWorkers } from './child-processes.js';
import type { PipelineChildFigures } from './pipeline-child.js';

const run = promisify(execFile);

export interface PipelineOverhead {
  units: number;
  concurrency: number;
  answerMs: number;
  requests: number;
  wallSeconds: number;
  /** The pipeline's own CPU from the start of the run (its process; threads included). */
  cpuSeconds: number;
  idealSeconds: number;
  overhead: number;
  maxInFlight: number;
  /** Worker threads that augmented the units (1: the main thread). */
  threads: number | 'auto';
  /** Seconds from the start of the run to its first request, and to the first time `concurrency` were in flight. */
  firstRequestSeconds: number;
  fullWindowSeconds: number | null;
}

export async function pipelineOverhead(options: {
  units: number;
  concurrency: number;
  answerMs: number;
  variants?: number;
  threads?: number | 'auto';
}): Promise<PipelineOverhead> {
  const variants = options.variants ?? 4;
  const threads = options.threads ?? 1;
  const child = await bundledWithWorkers('scripts/bench/pipeline-child.ts', 'bench-pipeline');
  let firstRequest: number | undefined;
  let fullWindow: number | undefined;
  let inFlight = 0;
  let maxInFlight = 0;
  const server = await startFakeOpenAIServer({
    record: false,
    respond: async () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      firstRequest ??= performance.timeOrigin + performance.now();
      if (inFlight >= options.concurrency) fullWindow ??= performance.timeOrigin + performance.now();
      await new Promise((resolve) => setTimeout(resolve, options.answerMs));
      inFlight--;
      return { content: 'ok' };
    },
  });
  try {
    const { stdout } = await run(
      process.execPath,
      [
        child,
        `--base-url=${server.url}`,
        `--units=${options.units}`,
        `--variants=${variants}`,
        `--concurrency=${options.concurrency}`,
        `--threads=${threads}`,
      ],
      { maxBuffer: 1 << 20 },
    );
    const figures = JSON.parse(stdout.trim().split('\n').at(-1) as string) as PipelineChildFigures;
    const requests = server.stats.requests;
    const idealSeconds = (Math.ceil(requests / options.concurrency) * options.answerMs) / 1000;
    // Both clocks are the epoch's: the child's start and this process's first answers.
    const since = (at: number | undefined) => ((at ?? Number.NaN) - figures.startedAtMs) / 1000;
    return {
      units: figures.units,
      concurrency: options.concurrency,
      answerMs: options.answerMs,
      requests,
      wallSeconds: figures.wallSeconds,
      cpuSeconds: figures.cpuSeconds,
      idealSeconds,
      overhead: figures.wallSeconds / idealSeconds - 1,
      maxInFlight,
      threads,
      firstRequestSeconds: since(firstRequest),
      fullWindowSeconds: fullWindow === undefined ? null : since(fullWindow),
    };
  } finally {
    await server.close();
  }
}
