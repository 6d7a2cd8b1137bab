import { describe, expect, it } from 'vitest';
import { type BenchMachine, type GoalFigures, goalRows, goalsMarkdown } from '../../scripts/bench/goals.js';

const reachedEverywhere: GoalFigures = {
  masking: {
    rows: 10_000,
    toolsOnlyRowsPerCpuSecond: 3000,
    toolsOnlyBytesPerCpuSecond: 30 * 2 ** 20,
    hammerRows: 10_000,
    hammerRowsPerCpuSecond: 2500,
    hammerBytesPerCpuSecond: 20 * 2 ** 20,
    inlineRowsPerCpuSecond: 1000,
    inlineBytesPerRow: 40_000,
  },
  scale: { rows: 10_000, cpuSeconds: 6, floorCpuSeconds: 1.5 },
  firstRun: { rows: 400, cpuSeconds: 0.7, floorCpuSeconds: 0.1 },
  pipeline: { units: 200, wallSeconds: 1.5, idealSeconds: 0.35, instantWallSeconds: 1.2 },
  start: { cpuSeconds: 14 },
  workers: {
    count: 2,
    policy: 'hat',
    rows: 800,
    one: { cpuSeconds: 10, wallSeconds: 10 },
    many: { cpuSeconds: 10.5, wallSeconds: 6 },
    sameBytes: true,
  },
};

const machine: BenchMachine = {
  model: 'AMD EPYC',
  cpus: 2,
  memoryGB: 24,
  os: 'Linux 6.1',
  node: 'v20.20.2',
  python: '3.11.7',
  load: { start: 3.2, end: 2.9 },
};

const byId = (figures: GoalFigures) => Object.fromEntries(goalRows(figures).map((row) => [row.id, row]));

describe("the bench's goals", () => {
  it('gives every goal its ratio to the baseline of the same run, in the order of the table', () => {
    const rows = goalRows(reachedEverywhere);
    expect(rows.map((row) => row.id)).toEqual([
      'masking',
      'scale',
      'firstRun',
      'pipeline',
      'start',
      'workers',
    ]);
    expect(rows.map((row) => row.ratio)).toEqual(
      [1.2, 4, 7, 0.75, 14 / 15, 1.05].map((ratio) => expect.closeTo(ratio, 9)),
    );
    expect(rows.every((row) => row.reached)).toBe(true);
  });

  it('holds each goal to its own bound and direction', () => {
    const missed = byId({
      masking: {
        ...(reachedEverywhere.masking as NonNullable<GoalFigures['masking']>),
        hammerRowsPerCpuSecond: 3001,
      },
      scale: { rows: 10_000, cpuSeconds: 6.1, floorCpuSeconds: 1.5 },
      firstRun: { rows: 400, cpuSeconds: 0.81, floorCpuSeconds: 0.1 },
      pipeline: { units: 200, wallSeconds: 2.01, idealSeconds: 0.35, instantWallSeconds: 1.2 },
      start: { cpuSeconds: 15.1 },
      workers: {
        ...(reachedEverywhere.workers as NonNullable<GoalFigures['workers']>),
        many: { cpuSeconds: 11.2, wallSeconds: 6 },
      },
    });
    for (const id of ['masking', 'scale', 'firstRun', 'pipeline', 'start', 'workers'])
      expect([id, missed[id]?.reached]).toEqual([id, false]);
  });

  it('needs less wall time and the same bytes from more workers, not only the CPU bound', () => {
    const workers = reachedEverywhere.workers as NonNullable<GoalFigures['workers']>;
    expect(
      byId({ workers: { ...workers, many: { cpuSeconds: 10, wallSeconds: 10 } } }).workers?.reached,
    ).toBe(false);
    expect(byId({ workers: { ...workers, sameBytes: false } }).workers?.reached).toBe(false);
  });

  it('says which figures a run left out instead of deciding them', () => {
    const rows = goalRows({ start: { cpuSeconds: 20 } });
    expect(rows.filter((row) => row.reached === undefined).map((row) => row.id)).toEqual([
      'masking',
      'scale',
      'firstRun',
      'pipeline',
      'workers',
    ]);
    expect(rows.find((row) => row.id === 'start')?.reached).toBe(false);
  });

  it('writes a markdown table with the machine, its load and one line per goal', () => {
    const text = goalsMarkdown(goalRows(reachedEverywhere), machine, '8 variants per input', '2026-12-05');
    expect(text).toContain('AMD EPYC, 2 cores, 24 GB, Linux 6.1, Node v20.20.2, Python 3.11.7');
    expect(text).toContain('3.2 at the start, 2.9 at the end');
    const tableLines = text.split('\n').filter((line) => line.startsWith('| '));
    expect(tableLines).toHaveLength(2 + 6);
    expect(tableLines[2]).toMatch(
      /^\| `tools-only` .* \| ≥ 1× \| 1\.20× \| 3,000 vs 2,500 rows\/CPU-s at 10,000 rows; 30\.0 vs 20\.0 MB written\/CPU-s \(rows by reference, as `hsa augment` writes them; inline 1,000 rows\/CPU-s\) \| reached \|$/,
    );
    expect(goalsMarkdown(goalRows({}), machine, '', '')).toContain('| not measured (section left out) | — |');
  });
});
