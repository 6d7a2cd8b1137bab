// `hsa explain --harness` on a variant that only reorders hooks printed every field of every shifted index
// as changed (items[1].id, .check, .onFail …), as if the hooks were rewritten (a user audit on GitHub's MCP
// server). Hooks, tools, skills and sections are matched by id or name: a reorder is one order line, and a
// reordered item's own changes are named by its id.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAugmentedRows } from '../../src/augment/variant-sidecar.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { projectRoot } from '../support/run-cli.js';
import { hsa } from '../support/run-hsa.js';

const harness = join(projectRoot, 'fixtures/helpdesk/harness.yaml');

interface Row {
  id: string;
  harness: { hooks: { items: { id: string }[] } };
}

describe('hsa explain: a reorder', () => {
  let dir: string;
  let trajectories: string;
  let baseHookIds: string[];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hsa-explain-reorder-'));
    const gold = (await readFile(join(projectRoot, 'fixtures/helpdesk/trajectories.jsonl'), 'utf8')).split(
      '\n',
    )[0];
    trajectories = join(dir, 'gold.jsonl');
    await writeFile(trajectories, `${gold}\n`);
    baseHookIds = (await loadHarnessFile(harness)).hooks.items.map((hook) => hook.id);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** The first row of `hsa augment` with the hooks operators applied in turn. */
  async function augmented(name: string, operators: string[]): Promise<{ rows: string; row: Row }> {
    const policy = join(dir, `${name}.yaml`);
    await writeFile(
      policy,
      `name: ${name}\nseverity: heavy\ndimensions:\n  hooks:\n    probability: 1\n    combine: all\n    operators: [${operators.join(', ')}]\n`,
    );
    const rows = join(dir, `${name}.jsonl`);
    const run = await hsa([
      'augment',
      '--harness',
      harness,
      '--trajectories',
      trajectories,
      '--policy-file',
      policy,
      '--variants',
      '1',
      '--out',
      rows,
    ]);
    expect(run.status, run.stderr).toBe(0);
    for await (const { row } of readAugmentedRows(rows)) return { rows, row: row as unknown as Row };
    throw new Error(`no row in ${rows}`);
  }

  it('hooks/reorder alone: one order line naming the hooks before and after, no field changes', async () => {
    const { rows, row } = await augmented('reorder', ['hooks/reorder']);
    const after = row.harness.hooks.items.map((hook) => hook.id);
    expect(new Set(after)).toEqual(new Set(baseHookIds));
    expect(after).not.toEqual(baseHookIds);
    const run = await hsa(['explain', rows, '--id', row.id, '--harness', harness]);
    expect(run.status, run.stderr).toBe(0);
    const changes = run.stdout
      .split('\n')
      .slice(run.stdout.split('\n').findIndex((l) => /change\(s\)/.test(l)));
    expect(changes[0]).toBe('  1 change(s) against the base:');
    expect(changes[1]).toBe(`    ~ $.hooks.items: order ${baseHookIds.join(', ')} → ${after.join(', ')}`);
    expect(run.stdout).not.toMatch(/items\[\d+\]/);

    const json = await hsa(['explain', rows, '--id', row.id, '--harness', harness, '--json']);
    expect(json.status, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)[0].changes).toEqual([
      { path: ['hooks', 'items'], order: { before: baseHookIds, after } },
    ]);
  }, 120_000);

  it('a reorder and reworded feedback: the order line, then each real change under its hook id', async () => {
    const { rows, row } = await augmented('reorder-reword', ['hooks/reorder', 'hooks/reword-feedback']);
    const run = await hsa(['explain', rows, '--id', row.id, '--harness', harness]);
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.split('\n').filter((line) => line.startsWith('    '));
    expect(lines[0]).toMatch(/^ {4}~ \$\.hooks\.items: order /);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(1))
      expect(line).toMatch(/^ {4}~ \$\.hooks\.items\[id=[\w-]+\]\.onFail\.feedback: /);

    const json = await hsa(['explain', rows, '--id', row.id, '--harness', harness, '--json']);
    const changes = JSON.parse(json.stdout)[0].changes as {
      path: unknown[];
      before?: string;
      after?: string;
    }[];
    const base = new Map(baseHookIds.map((id, index) => [id, index]));
    for (const change of changes.slice(1)) {
      const [, , item, ...rest] = change.path as [string, string, { id: string }, ...string[]];
      expect(rest).toEqual(['onFail', 'feedback']);
      expect(base.has(item.id)).toBe(true);
      const variantHook = row.harness.hooks.items.find((hook) => hook.id === item.id) as unknown as {
        onFail: { feedback: string };
      };
      expect(change.after).toBe(variantHook.onFail.feedback);
    }
  }, 120_000);
});
