// `hsa augment` writes rows by reference with a variants sidecar (default) or inline (--inline-harness):
// explain and invert read both alike; a missing or garbled sidecar line exits 1 naming its place; a run
// killed with SIGKILL and resumed writes the same sidecar, each entry once.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AugmentRow } from '../../src/augment/augment.js';
import { readAugmentedRows } from '../../src/augment/variant-sidecar.js';
import { hsaCli, projectRoot } from '../support/run-cli.js';
import { hsa } from '../support/run-hsa.js';

const harness = join(projectRoot, 'fixtures/livestream/harness.yaml');
let root: string;
let trajectories: string;
let byReference: string;
let inline: string;

const augmentArgs = (input: string, out: string, variants: string, ...extra: string[]) => [
  'augment',
  '--harness',
  harness,
  '--trajectories',
  input,
  '--variants',
  variants,
  '--seed',
  '5',
  '--out',
  out,
  ...extra,
];

async function resolved(file: string): Promise<string> {
  let text = '';
  for await (const { row } of readAugmentedRows(file)) text += `${JSON.stringify(row)}\n`;
  return text;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hsa-augment-sidecar-'));
  const fixture = await readFile(join(projectRoot, 'fixtures/livestream/trajectories.jsonl'), 'utf8');
  trajectories = join(root, 'tasks.jsonl');
  await writeFile(trajectories, `${fixture.split('\n').slice(0, 6).join('\n')}\n`);
  byReference = join(root, 'rows.jsonl');
  inline = join(root, 'inline.jsonl');
  const first = await hsa(augmentArgs(trajectories, byReference, '2'));
  expect(first.status, first.stderr).toBe(0);
  expect(first.stdout).toContain(`sidecar: ${join(root, 'rows.variants.jsonl')}`);
  const second = await hsa(augmentArgs(trajectories, inline, '2', '--inline-harness'));
  expect(second.status, second.stderr).toBe(0);
}, 120_000);

describe('hsa augment rows by reference', () => {
  it('resolve to the rows --inline-harness writes, at under a fifth of their bytes', async () => {
    const inlineText = await readFile(inline, 'utf8');
    expect(await resolved(byReference)).toBe(inlineText);
    const referenceBytes = (await readFile(byReference)).length;
    expect(referenceBytes * 5).toBeLessThanOrEqual(Buffer.byteLength(inlineText));
  });

  it('explain and invert give the same answers on rows by reference and inline rows', async () => {
    const rows: AugmentRow[] = [];
    for await (const { row } of readAugmentedRows(inline)) rows.push(row);
    const row = rows.find((candidate) =>
      candidate.relabel.steps.some((step) => step.type === 'rename_tools'),
    );
    expect(row, 'a row that renames tools').toBeDefined();
    const explain = async (file: string) =>
      hsa(['explain', file, '--id', row!.id, '--harness', harness, '--json']);
    const [explainedReference, explainedInline] = [await explain(byReference), await explain(inline)];
    expect(explainedReference.status, explainedReference.stderr).toBe(0);
    expect(explainedReference.stdout).toBe(explainedInline.stdout);
    expect(JSON.parse(explainedReference.stdout)[0].changes.length).toBeGreaterThan(0);

    const call = row!.trajectory.messages.find(
      (message) => message.role === 'assistant' && message.tool_calls && !message.hsa,
    );
    const output = join(root, 'output.json');
    await writeFile(output, JSON.stringify(call));
    const invert = async (file: string) =>
      hsa(['invert', '--rows', file, '--id', row!.id, '--output', output]);
    const [invertedReference, invertedInline] = [await invert(byReference), await invert(inline)];
    expect(invertedReference.status, invertedReference.stderr).toBe(0);
    expect(invertedReference.stdout).toBe(invertedInline.stdout);
    expect(invertedReference.stdout).not.toBe(`${JSON.stringify(call, null, 2)}\n`);
  });

  it('a sidecar without the row’s harness, or with a garbled line, exits 1 naming the place', async () => {
    const sidecar = await readFile(join(root, 'rows.variants.jsonl'), 'utf8');
    const [harnessLine, ...rest] = sidecar.trimEnd().split('\n') as [string, ...string[]];
    const hash = (JSON.parse(harnessLine) as { hash: string }).hash;
    const lacking = join(root, 'lacking.variants.jsonl');
    await writeFile(lacking, `${rest.join('\n')}\n`);
    const missing = await hsa(['explain', byReference, '--sidecar', lacking]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain(`${byReference}:1: harness ${hash} is not in the sidecar: ${lacking}`);

    const garbled = join(root, 'garbled.variants.jsonl');
    await writeFile(garbled, `${harnessLine.slice(0, 300)}\n${rest.join('\n')}\n`);
    const cut = await hsa([
      'invert',
      '--rows',
      byReference,
      '--id',
      'x',
      '--output',
      'x',
      '--sidecar',
      garbled,
    ]);
    expect(cut.status).toBe(1);
    expect(cut.stderr).toMatch(new RegExp(`${garbled}:1: invalid JSON at column \\d+`));
    expect(cut.stderr).not.toMatch(/\n\s+at /);
  });

  it('a run killed with SIGKILL and resumed writes the same rows and sidecar, each entry once', async () => {
    // Every identity row names the same harness and relabel: the resumed writer must know them already.
    const fixture = await readFile(join(projectRoot, 'fixtures/livestream/trajectories.jsonl'), 'utf8');
    const input = join(root, 'many.jsonl');
    await writeFile(input, `${fixture.split('\n').slice(0, 30).join('\n')}\n`);
    const args = (out: string) => augmentArgs(input, out, '20', '--policy', 'identity');
    const whole = join(root, 'whole.jsonl');
    expect((await hsa(args(whole))).status).toBe(0);
    const crashed = join(root, 'crashed.jsonl');
    const child = spawn(process.execPath, [hsaCli(), ...args(crashed)], {
      cwd: projectRoot,
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    const unitsDone = async () =>
      readFile(`${crashed}.checkpoint.json`, 'utf8').then(
        (text) => (JSON.parse(text) as { units: number }).units,
        () => 0,
      );
    while ((await unitsDone()) < 3) await new Promise((resolve) => setTimeout(resolve, 10));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(await unitsDone(), 'the run finished before the kill').toBeLessThan(30);
    const resumed = await hsa([...args(crashed), '--resume']);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(await readFile(crashed, 'utf8')).toBe(await readFile(whole, 'utf8'));
    const sidecar = await readFile(join(root, 'crashed.variants.jsonl'), 'utf8');
    expect(sidecar).toBe(await readFile(join(root, 'whole.variants.jsonl'), 'utf8'));
    expect(sidecar.trimEnd().split('\n')).toHaveLength(2);
  }, 180_000);
});
