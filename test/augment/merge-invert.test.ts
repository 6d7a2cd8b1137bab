// Merged skills invert exactly from a model's output: on every merge row of the fixture, the output that
// loads the merged skill maps back to the source the gold loaded, whole or one turn at a time.
import { describe, expect, it } from 'vitest';
import { mergeSkills } from '../../perturbations/skill-content/merge.js';
import { type AugmentRow, augment } from '../../src/augment/augment.js';
import { op } from '../../src/augment/plan.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { readJsonl } from '../../src/trajectory/read-jsonl.js';
import { invertOutput } from '../../src/trajectory/relabel.js';
import type { Message, Trajectory } from '../../src/trajectory/schema.js';

/** The skill each loader call names, with its user turn (1 = after the first user message). */
function loads(messages: readonly Message[], loader: { tool: string; argument: string }, startTurn = 0) {
  const found: Array<{ turn: number; skill: string }> = [];
  let turn = startTurn;
  for (const message of messages) {
    if (message.role === 'user' && !message.hsa) turn++;
    if (message.role !== 'assistant') continue;
    for (const call of message.tool_calls ?? []) {
      if (call.function.name !== loader.tool) continue;
      found.push({ turn, skill: JSON.parse(call.function.arguments)[loader.argument] });
    }
  }
  return found;
}

/** The assistant messages of user turn `turn`. */
function turnMessages(messages: readonly Message[], turn: number): Message[] {
  let current = 0;
  return messages.filter((message) => {
    if (message.role === 'user' && !message.hsa) current++;
    return current === turn && message.role === 'assistant';
  });
}

describe.each(['livestream', 'helpdesk'])('merged skills invert from the output: %s', async (fixture) => {
  const harness = await loadHarnessFile(`fixtures/${fixture}/harness.yaml`);
  const originals = new Map<string, Trajectory>();
  const rows: AugmentRow[] = [];
  const input = (async function* () {
    for await (const record of readJsonl(`fixtures/${fixture}/trajectories.jsonl`)) {
      if ('value' in record) originals.set((record.value as Trajectory).id, record.value as Trajectory);
      yield record;
    }
  })();
  for await (const row of augment(harness, input, {
    plan: op(mergeSkills),
    variants: 2,
    seed: 11,
    severity: 1,
  }))
    rows.push(row);
  const mergeRows = rows.filter((row) => row.relabel.steps.some((step) => step.type === 'merge_skills'));
  const loader = harness.skills.loader;

  it('has merge rows that load a merged skill', () => {
    const into = (row: AugmentRow) =>
      new Set(row.relabel.steps.flatMap((step) => (step.type === 'merge_skills' ? [step.into] : [])));
    const loading = mergeRows.filter((row) =>
      loads(row.trajectory.messages, row.harness.skills.loader).some((load) => into(row).has(load.skill)),
    );
    expect(mergeRows.length).toBeGreaterThan(40);
    expect(loading.length).toBeGreaterThan(40);
  });

  it('maps the whole output back to the gold loads, on every merge row', () => {
    for (const row of mergeRows) {
      const gold = originals.get(row.exampleId) as Trajectory;
      const output = row.trajectory.messages.filter((message) => message.role === 'assistant');
      // Assistant messages only: no user turns to count, so loads map back by their order.
      expect(loads(invertOutput(output, row.relabel), loader), row.id).toEqual(
        loads(gold.messages, loader).map((load) => ({ ...load, turn: 0 })),
      );
      // The conversation with its user messages: loads map back by turn.
      expect(loads(invertOutput(row.trajectory.messages, row.relabel), loader), row.id).toEqual(
        loads(gold.messages, loader),
      );
    }
  });

  it('maps an output that answers one turn back by that turn, on every merge row', () => {
    let checked = 0;
    for (const row of mergeRows) {
      const gold = originals.get(row.exampleId) as Trajectory;
      const turns = new Set(loads(gold.messages, loader).map((load) => load.turn));
      for (const turn of turns) {
        const output = turnMessages(row.trajectory.messages, turn);
        const inverted = invertOutput(output, row.relabel, { turn });
        expect(loads(inverted, loader, turn), `${row.id} turn ${turn}`).toEqual(
          loads(gold.messages, loader).filter((load) => load.turn === turn),
        );
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(mergeRows.length);
  });
});
