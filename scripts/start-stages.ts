// Where `npm start`'s CPU goes, stage by stage: the job enters a stage (start-up, validate, each pipeline
// stage, its own files) and the meter adds the CPU seconds spent since the last change to the stage it
// leaves. start.ts prints the result as one line and scripts/bench.ts (section `start`) reads it back, so
// the line's format lives here only.

/** CPU seconds (user + system) of this process since it started, every thread included. */
export function processCpuSeconds(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1e6;
}

export interface StageMeter {
  /** Charges the CPU since the last change to the current stage and makes `stage` current. */
  enter(stage: string): void;
  /** Closes the current stage: each stage's CPU seconds, in the order the stages were first entered. */
  finish(): Map<string, number>;
}

/**
 * A meter whose first stage is `first`, counted from `origin` on `clock` (by default from the process's
 * start, so module loading is the first stage's).
 *
 * @example
 * const meter = createStageMeter('start-up'); meter.enter('validate'); meter.finish() // Map { 'start-up' => 1.2, validate => 0.4 }
 */
export function createStageMeter(
  first: string,
  clock: () => number = processCpuSeconds,
  origin = 0,
): StageMeter {
  const spent = new Map<string, number>();
  let current = first;
  let since = origin;
  const charge = () => {
    const now = clock();
    spent.set(current, (spent.get(current) ?? 0) + (now - since));
    since = now;
  };
  return {
    enter(stage) {
      if (stage === current) return;
      charge();
      current = stage;
    },
    finish() {
      charge();
      return spent;
    },
  };
}

const prefix = 'CPU-s by stage:';

/**
 * The printed line: `CPU-s by stage: start-up 3.4, validate 1.9, sft 35.0 (total 40.3)`.
 *
 * @example
 * formatStages(new Map([['sft', 35]])) // 'CPU-s by stage: sft 35.0 (total 35.0)'
 */
export function formatStages(stages: ReadonlyMap<string, number>): string {
  const total = [...stages.values()].reduce((sum, seconds) => sum + seconds, 0);
  const parts = [...stages].map(([stage, seconds]) => `${stage} ${seconds.toFixed(1)}`);
  return `${prefix} ${parts.join(', ')} (total ${total.toFixed(1)})`;
}

/**
 * The stages of the first `formatStages` line in `output` (a run's stdout), or undefined when it has none.
 *
 * @example
 * parseStages('done\nCPU-s by stage: sft 35.0 (total 35.0)\n') // { sft: 35 }
 */
export function parseStages(output: string): Record<string, number> | undefined {
  const line = output.split('\n').find((candidate) => candidate.startsWith(prefix));
  if (line === undefined) return undefined;
  const body = line.slice(prefix.length).replace(/\(total [\d.]+\)\s*$/, '');
  const stages: Record<string, number> = {};
  for (const part of body.split(',')) {
    const match = /^\s*(.+?) (\d+(?:\.\d+)?)\s*$/.exec(part);
    if (match) stages[match[1] as string] = Number(match[2]);
  }
  return stages;
}
