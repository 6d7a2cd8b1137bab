// Acceptance runs of `hsa augment`, `explain`, `invert` and `operators` on the live-stream fixture.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AugmentRow } from '../../src/augment/augment.js';
import { dimensions } from '../../src/augment/operator.js';
import { readAugmentedRows } from '../../src/augment/variant-sidecar.js';
import { runCli } from '../support/run-cli.js';

const harness = 'fixtures/livestream/harness.yaml';
const trajectories = 'fixtures/livestream/trajectories.jsonl';
let folder: string;
let fullOut: string;
let fullRun: ReturnType<typeof runCli>;
let subset: string;

/** The rows of a file, by reference resolved through the sidecar beside it. */
const rowsOf = async (file: string) => {
  const rows: AugmentRow[] = [];
  for await (const { row } of readAugmentedRows(file)) rows.push(row);
  return rows;
};
/** The full run's rows, read once: four tests look at them (3,168 rows through the sidecar). */
let fullRows: Promise<AugmentRow[]> | undefined;
const fullRunRows = () => {
  fullRows ??= rowsOf(fullOut);
  return fullRows;
};
const linesOf = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n');

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'hsa-augment-'));
  fullOut = join(folder, 'hat.jsonl');
  fullRun = runCli(
    [
      'augment',
      '--harness',
      harness,
      '--trajectories',
      trajectories,
      '--variants',
      '8',
      '--seed',
      '42',
      '--policy',
      'hat',
      '--out',
      fullOut,
    ],
    { timeout: 580_000 },
  );
  subset = join(folder, 'subset.jsonl');
  writeFileSync(subset, `${readFileSync(trajectories, 'utf8').split('\n').slice(0, 45).join('\n')}\n`);
}, 600_000);

describe('hsa augment on the fixture', () => {
  it('writes one certified row per (trajectory, variant) with --policy hat, none rejected', async () => {
    // Up front, the one hat operator that cannot apply here says so: every fixture tool is mentioned or described in a text.
    expect(fullRun.stderr).toBe(
      'warning: tools/drop-unused cannot apply to this harness: every tool is called by the trajectory or mentioned or described in a text\n',
    );
    expect(fullRun.status).toBe(0);
    const inputCount = readFileSync(trajectories, 'utf8').trimEnd().split('\n').length;
    const rows = await fullRunRows();
    expect(rows).toHaveLength(inputCount * 8);
    expect(rows.every((row) => row.certificate.certified)).toBe(true);
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    expect(fullRun.stdout).toContain(`read ${inputCount} trajectories: ${inputCount} augmented + 0 rejected`);
    expect(fullRun.stdout).toContain(`rows: ${inputCount * 8} written + 0 uncertified`);
    expect(fullRun.stdout).toContain('rejected by reason: none');
  });

  it('changes each dimension in at least 90% of the variants whose policy chose it', async () => {
    const rows = await fullRunRows();
    for (const dimension of dimensions) {
      const chosen = rows.filter((row) => row.provenance.planned.includes(dimension));
      const changed = chosen.filter((row) => row.provenance.changed.includes(dimension));
      expect(chosen.length, dimension).toBeGreaterThan(rows.length / 2);
      expect(changed.length / chosen.length, dimension).toBeGreaterThanOrEqual(0.9);
    }
  });

  it('gives byte-identical output for the same seed, and shards that add up to the whole', () => {
    const run = (out: string, ...extra: string[]) =>
      runCli([
        'augment',
        '--harness',
        harness,
        '--trajectories',
        subset,
        '--variants',
        '3',
        '--seed',
        '7',
        '--out',
        out,
        ...extra,
      ]);
    const a = join(folder, 'a.jsonl');
    const b = join(folder, 'b.jsonl');
    expect(run(a).status).toBe(0);
    expect(run(b).status).toBe(0);
    expect(readFileSync(b, 'utf8')).toBe(readFileSync(a, 'utf8'));
    expect(readFileSync(join(folder, 'b.variants.jsonl'), 'utf8')).toBe(
      readFileSync(join(folder, 'a.variants.jsonl'), 'utf8'),
    );
    const shardLines = [0, 1, 2].flatMap((index) => {
      const out = join(folder, `shard-${index}.jsonl`);
      expect(run(out, '--shard', `${index}/3`).status).toBe(0);
      return linesOf(out);
    });
    expect(shardLines.sort()).toEqual(linesOf(a).sort());
    // The shards' sidecars together hold the whole run's, each entry once.
    const sidecarLines = [0, 1, 2].flatMap((index) => linesOf(join(folder, `shard-${index}.variants.jsonl`)));
    expect([...new Set(sidecarLines)].sort()).toEqual(linesOf(join(folder, 'a.variants.jsonl')).sort());
  }, 300_000);

  it('sends malformed lines to the rejects file with line and reason, and reconciles the counts', async () => {
    const lines = readFileSync(subset, 'utf8').trimEnd().split('\n').slice(0, 6);
    lines.splice(2, 0, '{"id": "broken", "messages": [');
    lines.splice(5, 0, '{"id":"no-messages","messages":[]}');
    const input = join(folder, 'malformed.jsonl');
    writeFileSync(input, `${lines.join('\n')}\n`);
    const out = join(folder, 'malformed-out.jsonl');
    const rejects = join(folder, 'malformed-rejects.jsonl');
    const run = runCli([
      'augment',
      '--harness',
      harness,
      '--trajectories',
      input,
      '--variants',
      '2',
      '--out',
      out,
      '--rejects',
      rejects,
    ]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('read 8 trajectories: 6 augmented + 2 rejected');
    expect(run.stdout).toContain('rows: 12 written + 0 uncertified = 6 × 2 variants');
    expect(run.stdout).toContain('rejected by reason: syntax_error 1, invalid_trajectory 1');
    const rejected = readFileSync(rejects, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rejected.map(({ reason, line }) => ({ reason, line }))).toEqual([
      { reason: 'syntax_error', line: 3 },
      { reason: 'invalid_trajectory', line: 6 },
    ]);
    expect(await rowsOf(out)).toHaveLength(12);
  });

  it('reads a policy file, and refuses a bad one with the path of the problem', async () => {
    const good = join(folder, 'policy.yaml');
    writeFileSync(
      good,
      'name: masking\nseverity: heavy\ndimensions:\n  tools:\n    operators:\n      - { op: tools/rename, params: { style: opaque } }\n',
    );
    const out = join(folder, 'policy-out.jsonl');
    const run = runCli([
      'augment',
      '--harness',
      harness,
      '--trajectories',
      subset,
      '--variants',
      '1',
      '--policy-file',
      good,
      '--out',
      out,
    ]);
    expect(run.status).toBe(0);
    const rows = await rowsOf(out);
    expect(
      rows.every((row) => row.provenance.ops.map((record) => record.name).join() === 'tools/rename'),
    ).toBe(true);
    expect(rows.every((row) => row.provenance.ops[0]?.severity === 1)).toBe(true);

    const bad = join(folder, 'bad-policy.yaml');
    writeFileSync(
      bad,
      'dimensions:\n  tools:\n    operators:\n      - { op: tools/rename, params: { style: loud } }\n',
    );
    const refused = runCli([
      'augment',
      '--harness',
      harness,
      '--trajectories',
      subset,
      '--policy-file',
      bad,
      '--out',
      join(folder, 'never.jsonl'),
    ]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/dimensions\.tools\.operators\[0\]\.params: style: /);
  });

  it('explain shows the operator chain and the diff against the base', async () => {
    const [row] = (await fullRunRows()).filter((candidate) => candidate.provenance.ops.length >= 2);
    const run = runCli(['explain', fullOut, '--id', row!.id, '--harness', harness]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`${row!.id}  ${row!.variantId}`);
    for (const record of row!.provenance.ops)
      expect(run.stdout).toContain(`${record.name}@${record.version}`);
    expect(run.stdout).toMatch(/\d+ change\(s\) against the base:\n {4}[~+-] \$\./);
  });

  it('invert maps a model output under the variant back to the base vocabulary', async () => {
    const row = (await fullRunRows()).find((candidate) =>
      candidate.relabel.steps.some((step) => step.type === 'rename_tools'),
    )!;
    // A tool call as a model would emit it under the variant; call ids survive relabels, so the base call is found by id.
    const call = row.trajectory.messages.find(
      (message) => message.role === 'assistant' && message.tool_calls && !message.hsa,
    ) as Extract<AugmentRow['trajectory']['messages'][number], { role: 'assistant' }>;
    const base = readFileSync(trajectories, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as AugmentRow['trajectory'])
      .find((trajectory) => trajectory.id === row.exampleId)!;
    const baseCall = base.messages.find(
      (message) => message.role === 'assistant' && message.tool_calls?.[0]?.id === call.tool_calls?.[0]?.id,
    );
    const output = join(folder, 'output.json');
    writeFileSync(output, JSON.stringify(call));
    const run = runCli(['invert', '--rows', fullOut, '--id', row.id, '--output', output]);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(baseCall);
  });
});

describe('hsa operators', () => {
  it('lists at least 24 operators, at least four per dimension', () => {
    const run = runCli(['operators', '--json']);
    expect(run.status).toBe(0);
    const operators = JSON.parse(run.stdout) as Array<{
      name: string;
      dimension: string;
      mode: string;
      needsExample: boolean;
      params: object;
    }>;
    expect(operators.length).toBeGreaterThanOrEqual(24);
    // The operators that decide from the example, as a pool reads them.
    expect(
      operators
        .filter((operator) => operator.needsExample)
        .map((operator) => operator.name)
        .sort(),
    ).toEqual([
      'hooks/disable-untriggered',
      'hooks/inject-recovery',
      'hooks/reorder',
      'hooks/vary-budgets',
      'skill-content/merge',
      'tools/drop-unused',
    ]);
    for (const dimension of dimensions)
      expect(
        operators.filter((operator) => operator.dimension === dimension).length,
        dimension,
      ).toBeGreaterThanOrEqual(4);
    for (const operator of operators) {
      expect(operator.name).toMatch(new RegExp(`^${operator.dimension}/`));
      expect(['exact', 'regenerate']).toContain(operator.mode);
      expect(operator.params).toHaveProperty('type', 'object');
    }
  });
});
