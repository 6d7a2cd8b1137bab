// Bench items from a user's own gold (issue 40, item 3): one item per scorable user turn, the rule of
// src/bench/derive-items.ts, and `hsa bench items` writing a file that `hsa bench generate` reads.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isScorableTurn, itemsFromTrajectory, trajectoryTurns } from '../../src/bench/derive-items.js';
import type { BenchItem, BenchRow } from '../../src/bench/schema.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { type Trajectory, TrajectorySchema } from '../../src/trajectory/schema.js';
import { projectRoot } from '../support/run-cli.js';
import { hsa } from '../support/run-hsa.js';

const harnessFile = join(projectRoot, 'fixtures/helpdesk/harness.yaml');
const trajectoriesFile = join(projectRoot, 'fixtures/helpdesk/trajectories.jsonl');
const lines = async (file: string) => (await readFile(file, 'utf8')).trim().split('\n');

describe('itemsFromTrajectory', () => {
  let harness: Harness;
  let golds: Trajectory[];
  beforeAll(async () => {
    harness = await loadHarnessFile(harnessFile);
    golds = (await lines(trajectoriesFile)).map((line) => TrajectorySchema.parse(JSON.parse(line)));
  });

  it('gives one item per scorable user turn: the conversation so far as input, that turn as the answer key', () => {
    const gold = golds.find((candidate) => trajectoryTurns(candidate).length >= 2) as Trajectory;
    const turns = trajectoryTurns(gold);
    const { items, skipped } = itemsFromTrajectory(harness, gold);
    expect(skipped).toEqual([]);
    expect(items.map((item) => item.id)).toEqual(turns.map((turn) => `${gold.id}-turn-${turn.number}`));
    const [first, second] = items as [BenchItem, BenchItem];
    expect(first.input).toEqual([gold.messages[turns[0]!.start]]);
    // Turn 2: earlier turns verbatim (no system prompt: each variant renders its own), ending in its user message.
    expect(second.input).toEqual(
      gold.messages.slice(0, turns[1]!.start + 1).filter((message) => message.role !== 'system'),
    );
    expect(second.gold.messages).toEqual(gold.messages.slice(0, turns[1]!.end));
    // Its expected calls are the calls of turn 2 only.
    const turnCalls = gold.messages
      .slice(turns[1]!.start, turns[1]!.end)
      .flatMap((message) => (message.role === 'assistant' && !message.hsa ? (message.tool_calls ?? []) : []))
      .filter((call) => call.function.name !== harness.skills.loader.tool)
      .map((call) => call.function.name);
    expect(second.expect.toolCalls.map((call) => call.name)).toEqual(turnCalls);
    expect(second.meta).toMatchObject({ source: gold.id, turn: 2, derived: true });
  });

  it('skips a turn that does not end in a plain reply, with its reason', () => {
    const gold = golds.find((candidate) => trajectoryTurns(candidate).length === 1) as Trajectory;
    const lastCall = gold.messages.findLastIndex(
      (message) => message.role === 'assistant' && !!message.tool_calls,
    );
    const cut = { ...gold, messages: gold.messages.slice(0, lastCall + 1) };
    expect(isScorableTurn(cut, trajectoryTurns(cut)[0]!)).toBe(false);
    expect(itemsFromTrajectory(harness, cut)).toEqual({
      items: [],
      skipped: [{ turn: 1, reason: 'turn_not_scorable' }],
    });
  });
});

describe('hsa bench items', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hsa-bench-items-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes the items of every scorable turn, accounts for every turn, and bench generate certifies them', async () => {
    const logs = join(dir, 'gold.jsonl');
    const golds = await lines(trajectoriesFile);
    // Two multi-turn conversations, one whose last turn was cut after a tool call, and a bad line.
    const multi = golds.filter(
      (line) =>
        (JSON.parse(line).messages as Array<{ role: string }>).filter((m) => m.role === 'user').length >= 2,
    );
    const cut = TrajectorySchema.parse(JSON.parse(golds.at(-1)!));
    cut.id = 'cut-after-a-call';
    // Its calls answered, but no reply.
    cut.messages = cut.messages.slice(
      0,
      cut.messages.findLastIndex((message) => message.role === 'tool') + 1,
    );
    await writeFile(logs, `${[multi[0], multi[1], JSON.stringify(cut), '{"id": 1}'].join('\n')}\n`);
    const items = join(dir, 'items.jsonl');
    const run = await hsa([
      'bench',
      'items',
      '--harness',
      harnessFile,
      '--trajectories',
      logs,
      '-o',
      items,
      '--json',
    ]);
    expect(run.status, run.stderr).toBe(1); // the bad line is bad data
    const result = JSON.parse(run.stdout);
    const written = (await lines(items)).map((line) => JSON.parse(line) as BenchItem);
    const rejects = (await lines(join(dir, 'items.rejects.jsonl'))).map((line) => JSON.parse(line));
    expect(result).toMatchObject({ trajectories: 4, rejected: 1, items: written.length });
    expect(result.turns).toBe(result.items + result.skippedTurns);
    expect(rejects.map((reject) => [reject.scope, reject.reason])).toContainEqual([
      'trajectory',
      'invalid_trajectory',
    ]);
    expect(rejects).toContainEqual(
      expect.objectContaining({ scope: 'turn', reason: 'turn_not_scorable', line: 3 }),
    );
    expect(written.some((item) => item.input.length > 1)).toBe(true);

    // A later turn's input under a variant names the variant's tools: it is taken from the rewritten gold.
    const bench = join(dir, 'bench.jsonl');
    const generated = await hsa([
      'bench',
      'generate',
      '--items',
      items,
      '--harness',
      harnessFile,
      '--variants',
      '2',
      '--seed',
      '3',
      '--policy',
      'tools-only',
      '--inline-harness',
      '-o',
      bench,
    ]);
    expect(generated.status, generated.stderr).toBe(0);
    const rows = (await lines(bench)).map((line) => JSON.parse(line) as BenchRow);
    expect(rows.length).toBe(written.length * 3);
    let renamed = 0;
    for (const row of rows.filter((candidate) => candidate.input.messages.length > 2)) {
      const offered = new Set(row.input.tools.map((tool) => tool.function.name));
      for (const message of row.input.messages)
        for (const call of message.role === 'assistant' ? (message.tool_calls ?? []) : []) {
          expect(offered.has(call.function.name), `${row.id}: ${call.function.name}`).toBe(true);
          if (row.variantIndex > 0 && !golds.some((line) => line.includes(`"name":"${call.function.name}"`)))
            renamed++;
        }
    }
    expect(renamed).toBeGreaterThan(0);
  }, 240_000);
});
