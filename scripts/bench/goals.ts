// The goals `npm run bench` reports against: each figure of a run as a ratio to its baseline measured in the
// same run (or to the goal itself where the goal is a time), whether the goal is reached, and the markdown
// table (out/bench.md) that names the machine and its load.

/** Figures of one run that the goals are set on; a section left out leaves its figure undefined. */
export interface GoalFigures {
  /**
   * tools-only (the bench child, bundled) and Hammer's masking on the same inputs × variants; tools-only's
   * rows as `hsa augment` writes them by default (by reference, the variants in the sidecar).
   */
  masking?: {
    rows: number;
    toolsOnlyRowsPerCpuSecond: number;
    /** Bytes of the rows and the sidecar written per CPU second. */
    toolsOnlyBytesPerCpuSecond: number;
    hammerRows: number;
    hammerRowsPerCpuSecond: number;
    hammerBytesPerCpuSecond: number;
    /** The same rows written inline (each holding its variant harness): rows per CPU second, bytes a row. */
    inlineRowsPerCpuSecond?: number;
    inlineBytesPerRow?: number;
  };
  /** `hat` at the goals' size (10k rows): the bench child's CPU and its I/O floor. */
  scale?: RunAgainstFloor;
  /** `hat` at a user's first run (400 rows) in a fresh process. */
  firstRun?: RunAgainstFloor;
  pipeline?: { units: number; wallSeconds: number; idealSeconds: number; instantWallSeconds: number };
  start?: { cpuSeconds: number };
  workers?: {
    count: number;
    policy: string;
    rows: number;
    one: { cpuSeconds: number; wallSeconds: number };
    many: { cpuSeconds: number; wallSeconds: number };
    sameBytes: boolean;
  };
}

export interface RunAgainstFloor {
  rows: number;
  cpuSeconds: number;
  floorCpuSeconds: number;
}

export interface GoalRow {
  id: keyof GoalFigures;
  figure: string;
  goal: string;
  /** The figure against its baseline (or its goal): the number the goal is set on. */
  ratio?: number;
  ratioText: string;
  measured: string;
  /** Undefined when the run left the figure's section out. */
  reached?: boolean;
}

export const goals = {
  toolsOnlyVsHammer: 1,
  hatAtScaleOverFloor: 4,
  hatFirstRunOverFloor: 8,
  pipelineWallSeconds: 2,
  startCpuSeconds: 15,
  workersCpuRatio: 1.1,
} as const;

const times = (ratio: number) => `${ratio < 10 ? ratio.toFixed(2) : ratio.toFixed(1)}×`;
const grouped = (value: number) => Math.round(value).toLocaleString('en-US');

function notMeasured(row: Omit<GoalRow, 'ratioText' | 'measured'>): GoalRow {
  return { ...row, ratioText: '—', measured: 'not measured (section left out)' };
}

function againstFloor(
  id: 'scale' | 'firstRun',
  figure: string,
  goal: number,
  run: RunAgainstFloor | undefined,
): GoalRow {
  const row = { id, figure, goal: `≤ ${goal}×` };
  if (!run) return notMeasured(row);
  const ratio = run.cpuSeconds / run.floorCpuSeconds;
  return {
    ...row,
    ratio,
    ratioText: times(ratio),
    measured:
      `${run.cpuSeconds.toFixed(2)} CPU-s for ${grouped(run.rows)} rows ` +
      `(${grouped(run.rows / run.cpuSeconds)} rows/CPU-s); floor ${run.floorCpuSeconds.toFixed(2)} CPU-s`,
    reached: ratio <= goal,
  };
}

/** Every goal's row, in the order of the goals' table. */
export function goalRows(figures: GoalFigures): GoalRow[] {
  const rows: GoalRow[] = [];
  const masking = figures.masking;
  const maskingRow = {
    id: 'masking' as const,
    figure: "`tools-only` rows/CPU-s vs Hammer's function masking (its own Python code), same rows",
    goal: `≥ ${goals.toolsOnlyVsHammer}×`,
  };
  if (masking) {
    const ratio = masking.toolsOnlyRowsPerCpuSecond / masking.hammerRowsPerCpuSecond;
    rows.push({
      ...maskingRow,
      ratio,
      ratioText: times(ratio),
      measured:
        `${grouped(masking.toolsOnlyRowsPerCpuSecond)} vs ${grouped(masking.hammerRowsPerCpuSecond)} rows/CPU-s ` +
        `at ${grouped(masking.rows)} rows; ${(masking.toolsOnlyBytesPerCpuSecond / 2 ** 20).toFixed(1)} vs ` +
        `${(masking.hammerBytesPerCpuSecond / 2 ** 20).toFixed(1)} MB written/CPU-s (rows by reference, as ` +
        '`hsa augment` writes them' +
        (masking.inlineRowsPerCpuSecond === undefined
          ? ')'
          : `; inline ${grouped(masking.inlineRowsPerCpuSecond)} rows/CPU-s)`),
      reached: ratio >= goals.toolsOnlyVsHammer,
    });
  } else rows.push(notMeasured(maskingRow));

  rows.push(
    againstFloor(
      'scale',
      '`hat`, CPU vs the I/O floor, at the goals’ size',
      goals.hatAtScaleOverFloor,
      figures.scale,
    ),
  );
  rows.push(
    againstFloor(
      'firstRun',
      '`hat`, CPU vs the I/O floor, a user’s first run (fresh process)',
      goals.hatFirstRunOverFloor,
      figures.firstRun,
    ),
  );

  const pipeline = figures.pipeline;
  const pipelineRow = {
    id: 'pipeline' as const,
    figure: 'pipeline, concurrency 64, 50 ms endpoint, wall time',
    goal: `≤ ${goals.pipelineWallSeconds} s`,
  };
  if (pipeline) {
    const ratio = pipeline.wallSeconds / goals.pipelineWallSeconds;
    rows.push({
      ...pipelineRow,
      ratio,
      ratioText: `${times(ratio)} the goal`,
      measured:
        `${pipeline.wallSeconds.toFixed(2)} s for ${pipeline.units} units (ideal ${pipeline.idealSeconds.toFixed(2)} s; ` +
        `${pipeline.instantWallSeconds.toFixed(2)} s with instant answers)`,
      reached: pipeline.wallSeconds <= goals.pipelineWallSeconds,
    });
  } else rows.push(notMeasured(pipelineRow));

  const start = figures.start;
  const startRow = {
    id: 'start' as const,
    figure: '`npm start`, CPU',
    goal: `≤ ${goals.startCpuSeconds} CPU-s`,
  };
  if (start) {
    const ratio = start.cpuSeconds / goals.startCpuSeconds;
    rows.push({
      ...startRow,
      ratio,
      ratioText: `${times(ratio)} the goal`,
      measured: `${start.cpuSeconds.toFixed(1)} CPU-s`,
      reached: start.cpuSeconds <= goals.startCpuSeconds,
    });
  } else rows.push(notMeasured(startRow));

  const workers = figures.workers;
  const workersRow = {
    id: 'workers' as const,
    figure: `\`--workers ${workers?.count ?? 2}\` vs 1`,
    goal: `less wall time, ≤ ${goals.workersCpuRatio}× the CPU`,
  };
  if (workers) {
    const cpuRatio = workers.many.cpuSeconds / workers.one.cpuSeconds;
    const wallRatio = workers.many.wallSeconds / workers.one.wallSeconds;
    rows.push({
      ...workersRow,
      ratio: cpuRatio,
      ratioText: `CPU ${times(cpuRatio)}, wall ${times(wallRatio)}`,
      measured:
        `\`${workers.policy}\`, ${grouped(workers.rows)} rows: CPU ${workers.one.cpuSeconds.toFixed(1)} → ` +
        `${workers.many.cpuSeconds.toFixed(1)} s, wall ${workers.one.wallSeconds.toFixed(1)} → ` +
        `${workers.many.wallSeconds.toFixed(1)} s, ${workers.sameBytes ? 'same bytes' : 'DIFFERENT BYTES'}`,
      reached: wallRatio < 1 && cpuRatio <= goals.workersCpuRatio && workers.sameBytes,
    });
  } else rows.push(notMeasured(workersRow));
  return rows;
}

export interface BenchMachine {
  model: string;
  cpus: number;
  memoryGB: number;
  os: string;
  node: string;
  python?: string;
  /** The 1-minute load average when the run started and when it ended (os.loadavg()[0]). */
  load: { start: number; end: number };
}

const cell = (text: string) => text.replaceAll('|', '\\|');

/** out/bench.md: the machine, the settings and one line per goal. */
export function goalsMarkdown(
  rows: GoalRow[],
  machine: BenchMachine,
  settings: string,
  date: string,
): string {
  const lines = [
    `# \`npm run bench\`, ${date}`,
    '',
    `Machine: ${machine.model}, ${machine.cpus} cores, ${machine.memoryGB.toFixed(0)} GB, ${machine.os}, ` +
      `Node ${machine.node}${machine.python ? `, Python ${machine.python}` : ''}. Load average (1 min) ` +
      `${machine.load.start.toFixed(1)} at the start, ${machine.load.end.toFixed(1)} at the end: a load near or ` +
      `above ${machine.cpus} means other processes shared the cores and wall times read high.`,
    '',
    `Settings: ${settings}.`,
    '',
    '| figure | goal | ratio | measured | |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map(
      (row) =>
        `| ${cell(row.figure)} | ${cell(row.goal)} | ${cell(row.ratioText)} | ${cell(row.measured)} | ` +
        `${row.reached === undefined ? '—' : row.reached ? 'reached' : '**not reached**'} |`,
    ),
    '',
  ];
  return lines.join('\n');
}
