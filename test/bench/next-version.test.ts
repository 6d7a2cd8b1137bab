// The real-next-version bench on the helpdesk history (a skill rename, a parameter rename, a reordered
// prompt, a larger retry budget, an added tool): task-preserving edits carry every item with its key moved
// exactly, an answer right under v and moved by the edit's relabel is right under v+1 while the stale one is
// wrong where a name changed, and an item the edit's task change touches is marked for regeneration with
// its reason, never scored.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { itemsFromTrajectory } from '../../src/bench/derive-items.js';
import { type BenchReject, generateBench } from '../../src/bench/generate.js';
import {
  describeNextVersion,
  type NextVersionOutcome,
  nextVersionBench,
} from '../../src/bench/next-version.js';
import { scoreNextVersion } from '../../src/bench/next-version-scores.js';
import type { BenchItem, BenchRow, Prediction } from '../../src/bench/schema.js';
import { expectationsAsPredictions, scoreBench, scoreRow } from '../../src/bench/score.js';
import { policyFromOptions } from '../../src/cli/operators-registry.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { relabelMessages } from '../../src/trajectory/relabel.js';
import { TrajectorySchema } from '../../src/trajectory/schema.js';
import { validateTrajectory } from '../../src/trajectory/validate-trajectory.js';
import { historyEdits } from '../drift/history-repo.js';
import { projectRoot } from '../support/run-cli.js';

const helpdesk = await loadHarnessFile(`${projectRoot}/fixtures/helpdesk/harness.yaml`);
const golds = readFileSync(`${projectRoot}/fixtures/helpdesk/trajectories.jsonl`, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .slice(0, 16)
  .map((line) => TrajectorySchema.parse(JSON.parse(line)));
const items: BenchItem[] = golds.flatMap((gold) => itemsFromTrajectory(helpdesk, gold).items);
const versions: Harness[] = [helpdesk];
for (const { edit } of historyEdits) versions.push(edit(versions.at(-1) as Harness));

async function carry(before: Harness, after: Harness, input: readonly BenchItem[], unrelated?: string[]) {
  const outcomes: NextVersionOutcome[] = [];
  const rejects: BenchReject[] = [];
  for await (const outcome of nextVersionBench(before, after, input, {
    ...(unrelated ? { unrelated } : {}),
    onReject: (reject) => rejects.push(reject),
  }))
    outcomes.push(outcome);
  const carried = outcomes.flatMap((outcome) => (outcome.decision === 'carried' ? [outcome] : []));
  const regenerate = outcomes.flatMap((outcome) => (outcome.decision === 'regenerate' ? [outcome] : []));
  return { outcomes, carried, regenerate, rejects };
}

/** An answer right under v: what the row under v expects, in v's names. */
const rightUnderV = (row: BenchRow): Prediction => expectationsAsPredictions([row])[0] as Prediction;

/** The items carried up to the last version before the added tool (set by the first test). */
let itemsOfLastVersion: BenchItem[] = [];

describe('nextVersionBench on the helpdesk history', () => {
  it('has items to carry', () => {
    expect(items.length).toBeGreaterThan(10);
  });

  it('carries every item across a task-preserving edit; the moved answer scores right, the stale one wrong where names changed', async () => {
    let moved = 0;
    let stale = 0;
    // The items of each version are those carried from the one before.
    let current = items;
    for (let index = 0; index + 1 < versions.length; index++) {
      const before = versions[index] as Harness;
      const after = versions[index + 1] as Harness;
      const edit = describeNextVersion(before, after);
      if (!edit.taskPreserving) continue;
      const { carried, regenerate, rejects } = await carry(before, after, current);
      expect(carried.length + regenerate.length).toBe(current.length);
      current = carried.map((outcome) => outcome.item);
      itemsOfLastVersion = current;
      expect(rejects, historyEdits[index]?.subject).toEqual([]);
      // A budget change keeps a trajectory only where its hook decisions stay: the others say so.
      for (const outcome of regenerate) expect(outcome.reasons.join(' ')).toMatch(/^not certified under/);
      expect(carried.length, historyEdits[index]?.subject).toBeGreaterThan(items.length / 2);
      for (const { rows, item, keyMoved } of carried) {
        const [underV, underNext] = rows;
        expect(underNext.harness).toBe(after);
        expect(underNext.id).toBe(`${item.id}/next`);
        expect(validateTrajectory(item.gold, after).valid).toBe(true);
        const answer = rightUnderV(underV);
        expect(scoreRow(underV, answer).overall).toBe(true);
        const mapped = { id: underNext.id, output: relabelMessages(answer.output, edit.relabel, 'forward') };
        expect(scoreRow(underNext, mapped).overall, `${item.id}: the moved answer`).toBe(true);
        const namesChanged = JSON.stringify(mapped.output) !== JSON.stringify(answer.output);
        expect(scoreRow(underNext, answer).overall, `${item.id}: the stale answer`).toBe(!namesChanged);
        if (namesChanged) stale++;
        if (keyMoved) moved++;
      }
    }
    expect(moved).toBeGreaterThan(0);
    expect(stale).toBeGreaterThan(0);
  }, 240_000);

  it('marks every item for regeneration when a tool is added, and names it; --unrelated carries them', async () => {
    const before = versions.at(-2) as Harness;
    const after = versions.at(-1) as Harness;
    expect(itemsOfLastVersion.length).toBeGreaterThan(0);
    const { carried, regenerate } = await carry(before, after, itemsOfLastVersion);
    expect(carried).toEqual([]);
    expect(regenerate).toHaveLength(itemsOfLastVersion.length);
    for (const outcome of regenerate) expect(outcome.reasons[0]).toMatch(/^tool-added get_asset_inventory: /);
    const vouched = await carry(before, after, itemsOfLastVersion, ['get_asset_inventory']);
    expect(vouched.carried).toHaveLength(itemsOfLastVersion.length);
    for (const outcome of vouched.carried)
      expect(outcome.notes).toContain('tool-added get_asset_inventory: vouched unrelated');
  }, 120_000);

  it('regenerates only the items that call a removed tool; the others are carried and scored', async () => {
    const calledBy = (name: string) => (item: BenchItem) =>
      item.gold.messages.some(
        (message) =>
          message.role === 'assistant' && message.tool_calls?.some((call) => call.function.name === name),
      );
    // The tool the most items call, short of all of them.
    const [removed] = helpdesk.tools.items
      .map((tool) => ({ name: tool.name, count: items.filter(calledBy(tool.name)).length }))
      .filter((entry) => entry.count < items.length)
      .sort((a, b) => b.count - a.count)
      .map((entry) => entry.name) as [string];
    const calls = calledBy(removed);
    const without: Harness = {
      ...helpdesk,
      tools: { ...helpdesk.tools, items: helpdesk.tools.items.filter((tool) => tool.name !== removed) },
    };
    const { carried, regenerate } = await carry(helpdesk, without, items);
    expect(regenerate.length).toBeGreaterThan(0);
    for (const outcome of regenerate) {
      expect(calls(outcome.item)).toBe(true);
      expect(outcome.reasons).toContain(`tool-removed ${removed}: the item calls ${removed}`);
    }
    expect(carried.length).toBeGreaterThan(0);
    for (const outcome of carried) expect(calls(outcome.item)).toBe(false);
    // Only carried items have rows: a task-changing item is never scored with a stale key.
    const rows = carried.flatMap((outcome) => outcome.rows);
    const scores = scoreNextVersion(
      scoreBench(
        rows.filter((row) => row.variantIndex === 0),
        [],
        { seed: '0', resamples: 10 },
      ),
      rows,
      expectationsAsPredictions(rows),
      { seed: '0', resamples: 10 },
    );
    expect(scores.counts.items).toBe(carried.length);
    expect(scores.real.criteria.overall.variants.mean).toBe(1);
    expect(scores.rows.map((row) => row.itemId)).not.toContain(regenerate[0]?.itemId);
  }, 120_000);

  it('rejects what it cannot read, a repeated id and an item of another harness: read = carried + regenerate + rejected', async () => {
    const [first, second] = items as [BenchItem, BenchItem];
    const input = [
      { line: 1, item: first },
      { line: 2, issues: [{ code: 'invalid_json', path: [], message: 'Unexpected token' }] },
      { line: 3, item: first },
      { line: 4, item: { ...second, harness: { id: 'another-harness' } } },
    ];
    let read = 0;
    const rejects: BenchReject[] = [];
    const outcomes: NextVersionOutcome[] = [];
    for await (const outcome of nextVersionBench(helpdesk, versions[1] as Harness, input, {
      onItem: () => read++,
      onReject: (reject) => rejects.push(reject),
    }))
      outcomes.push(outcome);
    expect(read).toBe(4);
    expect(rejects.map((reject) => [reject.reason, reject.line])).toEqual([
      ['invalid_item', 2],
      ['duplicate_id', 3],
      ['harness_mismatch', 4],
    ]);
    expect(outcomes.length + rejects.length).toBe(read);
  });

  it('writes variant 0 rows byte for byte as hsa bench generate does, and the same outcomes on every run', async () => {
    const sample = items.slice(0, 4);
    const first = await carry(helpdesk, versions[1] as Harness, sample);
    const again = await carry(helpdesk, versions[1] as Harness, sample);
    expect(JSON.stringify(again.outcomes)).toBe(JSON.stringify(first.outcomes));
    const generated: BenchRow[] = [];
    const { plan } = await policyFromOptions('hat', undefined);
    for await (const row of generateBench(helpdesk, sample, { plan, variants: 0, seed: 0 }))
      generated.push(row);
    expect(first.carried.map((outcome) => JSON.stringify(outcome.rows[0]))).toEqual(
      generated.map((row) => JSON.stringify(row)),
    );
  }, 120_000);
});
