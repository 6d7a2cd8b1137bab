// examples/third-party-operator: an operator written only against `harness-augment/kit` (imported by the
// package name, as a third party does) passes the same law suite and golden harness as the built-ins, and
// runs through `hsa augment --operators` / `hsa operators --operators` beside them.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operators, prefixTools } from '../examples/third-party-operator/operator.js';
import {
  checkOperatorGolden,
  checkOperatorLaws,
  type Trajectory,
  validateTrajectory,
} from '../src/kit/index.js';
import { lawCases } from './support/law-cases.js';
import { projectRoot, runCli } from './support/run-cli.js';
import { baggageTrajectory, travelHarness } from './support/travel-harness.js';

const example = join(projectRoot, 'examples/third-party-operator');
const module = join(example, 'operator.ts');
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'hsa-third-party-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('a third-party operator written with the kit', () => {
  it('exports what --operators reads', () => {
    expect(operators).toEqual([prefixTools]);
    expect(prefixTools.id).toBe('tools/prefix');
  });

  it('obeys the operator laws on the built-ins’ cases and random harnesses', async () => {
    const report = await checkOperatorLaws(prefixTools, { cases: await lawCases() });
    expect(report.applied).toBeGreaterThan(0);
  });

  it('matches its golden file, as every built-in does', async () => {
    const harness = travelHarness();
    const trajectory = validateTrajectory(baggageTrajectory(), harness).trajectory as Trajectory;
    const { actual, expected } = await checkOperatorGolden(
      prefixTools,
      { harness, trajectory },
      join(example, 'golden.json'),
      { update: process.env.UPDATE_GOLDEN === '1' },
    );
    expect(actual).toBe(expected);
    expect(actual).toContain('acme_');
  });

  const augmentArgs = (out: string, extra: string[] = []) => [
    'augment',
    '--harness',
    'fixtures/livestream/harness.yaml',
    '--trajectories',
    'fixtures/livestream/trajectories.jsonl',
    '--shard',
    '0/40',
    '--variants',
    '2',
    '--operators',
    module,
    '--policy-file',
    join(example, 'policy.yaml'),
    '--out',
    out,
    ...extra,
  ];

  it('runs through hsa augment --operators with a policy that names it', async () => {
    const out = join(folder, 'rows.jsonl');
    const run = runCli(augmentArgs(out));
    expect(run.stderr).not.toMatch(/error|hsa:/i);
    expect(run.status).toBe(0);
    const rows = (await readFile(out, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { provenance: { ops: Array<{ name: string }>; changed: string[] } });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.provenance.ops.some((op) => op.name === 'tools/prefix'))).toBe(true);
    expect(await readFile(join(folder, 'rows.variants.jsonl'), 'utf8')).toContain('"acme_');
    // Worker threads load the module too, and write the same bytes.
    const threaded = join(folder, 'threaded.jsonl');
    const parallel = runCli(augmentArgs(threaded, ['--workers', '2']));
    expect(parallel.stderr).not.toMatch(/error|hsa:/i);
    expect(parallel.status).toBe(0);
    expect(await readFile(threaded, 'utf8')).toBe(await readFile(out, 'utf8'));
  });

  it('without --operators the policy names an unknown operator (exit 2)', () => {
    const run = runCli([
      'augment',
      '--harness',
      'fixtures/livestream/harness.yaml',
      '--trajectories',
      'fixtures/livestream/trajectories.jsonl',
      '--policy-file',
      join(example, 'policy.yaml'),
      '--out',
      join(folder, 'none.jsonl'),
    ]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('unknown operator "tools/prefix"');
  });

  it('hsa operators --operators lists it beside the built-ins', () => {
    const run = runCli(['operators', '--json', '--operators', module]);
    expect(run.status).toBe(0);
    const listed = JSON.parse(run.stdout) as Array<{ name: string; dimension: string; mode: string }>;
    expect(listed.find((entry) => entry.name === 'tools/prefix')).toMatchObject({
      dimension: 'tools',
      mode: 'exact',
    });
    expect(listed.some((entry) => entry.name === 'tools/rename')).toBe(true);
  });

  it('a module whose operator clashes with a built-in, or exports no operator, is a located usage error', async () => {
    const clash = join(folder, 'clash.ts');
    await writeFile(
      clash,
      `import { prefixTools } from ${JSON.stringify(module)};\nexport const operators = [prefixTools, { ...prefixTools, id: 'tools/rename' }];\n`,
    );
    const clashed = runCli(['operators', '--operators', clash]);
    expect(clashed.status).toBe(2);
    expect(clashed.stderr).toContain(`operator "tools/rename" of ${clash} clashes with a built-in operator`);

    const broken = join(folder, 'broken.ts');
    await writeFile(
      broken,
      `import { prefixTools } from ${JSON.stringify(module)};\nexport const operators = [prefixTools, { ...prefixTools, id: 'tools/other', apply: 'no' }];\n`,
    );
    const bad = runCli(['operators', '--operators', broken]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`--operators ${broken}: operators[1]: apply: expected a function`);

    const empty = join(folder, 'empty.mjs');
    await writeFile(empty, 'export const something = 1;\n');
    const none = runCli(['operators', '--operators', empty]);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain(`--operators ${empty}: export \`operators\``);

    const twice = runCli(['operators', '--operators', module, '--operators', module]);
    expect(twice.status).toBe(2);
    expect(twice.stderr).toContain(`clashes with the operator of ${module}`);
  });
});
