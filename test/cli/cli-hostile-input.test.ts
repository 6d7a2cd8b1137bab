// Hostile input through the real `hsa` program, in process: every case exits 1 (bad content) or 2 (usage,
// I/O) with one clear line, never 3, and never hangs.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { hsa } from '../support/run-hsa.js';
import { travelContext, travelHarnessInput } from '../support/travel-harness.js';

let folder: string;
let harnessFile: string;
let trajectoriesFile: string;
const fixtureHarness = 'fixtures/livestream/harness.yaml';

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'hsa-hostile-'));
  harnessFile = join(folder, 'travel.json');
  writeFileSync(harnessFile, JSON.stringify(travelHarnessInput(), null, 2));
  writeFileSync(join(folder, 'context.json'), JSON.stringify(travelContext));
  trajectoriesFile = join(folder, 'two.jsonl');
  const lines = readFileSync('fixtures/livestream/trajectories.jsonl', 'utf8').split('\n').slice(0, 2);
  writeFileSync(trajectoriesFile, `${lines.join('\n')}\n`);
});

const oneLine = (stderr: string) => stderr.split('\n').filter(Boolean);

const augmentArgs = (out: string, extra: string[] = []) => [
  'augment',
  '--harness',
  fixtureHarness,
  '--trajectories',
  trajectoriesFile,
  '--variants',
  '1',
  '--out',
  out,
  ...extra,
];

describe('output paths that cannot be written (exit 2, one line, before any work)', () => {
  it('a path under /proc exits 2 instead of hanging', async () => {
    const run = await hsa(augmentArgs('/proc/hsa-nowhere/rows.jsonl'));
    expect(run.status).toBe(2);
    expect(oneLine(run.stderr)).toEqual([
      expect.stringMatching(/^hsa: \/proc\/hsa-nowhere\/rows\.jsonl: cannot write: /),
    ]);
  });

  it('--out naming an existing folder', async () => {
    const existing = join(folder, 'a-folder');
    mkdirSync(existing, { recursive: true });
    const run = await hsa(augmentArgs(existing));
    expect(run.status).toBe(2);
    expect(oneLine(run.stderr)).toEqual([`hsa: ${existing}: cannot write: it is a folder, not a file`]);
  });

  it('--out under a file', async () => {
    const run = await hsa(augmentArgs(join(harnessFile, 'rows.jsonl')));
    expect(run.status).toBe(2);
    expect(oneLine(run.stderr)).toEqual([
      `hsa: ${join(harnessFile, 'rows.jsonl')}: cannot write: a part of the path is a file, not a folder`,
    ]);
  });

  it('the same for a command writing one file (render -o)', async () => {
    const run = await hsa([
      'render',
      harnessFile,
      '-c',
      join(folder, 'context.json'),
      '-o',
      join(harnessFile, 'prompt.txt'),
    ]);
    expect(run.status).toBe(2);
    expect(oneLine(run.stderr)).toHaveLength(1);
  });
});

describe('output paths that are not plain files (item 0: followed or refused, never replaced)', () => {
  it('a symbolic link is written through: the link stays, the file it names gets the rows', async () => {
    const real = join(folder, 'real-rows.jsonl');
    const link = join(folder, 'link-rows.jsonl');
    symlinkSync(real, link);
    const run = await hsa(augmentArgs(link));
    expect(run.status, run.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(real);
    expect(readFileSync(real, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
  });

  it('a link to /dev/null is written in place: the device stays a device', async () => {
    const link = join(folder, 'null-rows.jsonl');
    symlinkSync('/dev/null', link);
    const run = await hsa(augmentArgs(link));
    expect(run.status, run.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it('a FIFO nobody reads is refused before any work, and stays a FIFO', async () => {
    const fifo = join(folder, 'rows.fifo');
    execFileSync('mkfifo', [fifo]);
    const run = await hsa(augmentArgs(fifo));
    expect(run.status).toBe(2);
    expect(oneLine(run.stderr)).toEqual([`hsa: ${fifo}: cannot write: it is a FIFO that no process reads`]);
    expect(statSync(fifo).isFIFO()).toBe(true);
  });

  it('a temporary left by a killed writer is removed by the next run; a live one is kept', async () => {
    const out = join(folder, 'stale-bench.jsonl');
    const dead = spawnSync(process.execPath, [
      '-e',
      'process.stdout.write(String(process.pid))',
    ]).stdout.toString();
    writeFileSync(`${out}.${dead}.partial`, '{"half":');
    writeFileSync(`${out}.${process.ppid}.1.partial`, '{"live":');
    const run = await hsa([
      'bench',
      'generate',
      '--items',
      'fixtures/livestream/bench/items.jsonl',
      '--harness',
      fixtureHarness,
      '--variants',
      '1',
      '--out',
      out,
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(existsSync(`${out}.${dead}.partial`)).toBe(false);
    expect(readdirSync(folder).filter((name) => name.startsWith('stale-bench.jsonl.'))).toEqual([
      `stale-bench.jsonl.${process.ppid}.1.partial`,
    ]);
  });
});

describe('bad input files (exit 1 or 2, never 3)', () => {
  it('a folder passed where a file is expected', async () => {
    const run = await hsa(
      augmentArgs(join(folder, 'rows.jsonl')).map((arg) => (arg === trajectoriesFile ? folder : arg)),
    );
    expect(run.status).toBe(2);
    expect(oneLine(run.stderr)).toEqual([`hsa: ${folder}: cannot read: it is a folder, not a file`]);
    const validate = await hsa(['validate', folder]);
    expect(validate.status).toBe(2);
    expect(oneLine(validate.stderr)).toEqual([`hsa: ${folder}: cannot read: it is a folder, not a file`]);
  });

  it('a YAML alias bomb', async () => {
    const bomb = join(folder, 'bomb.yaml');
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let level = 1; level < 9; level++)
      lines.push(`a${level}: &a${level} [${Array.from({ length: 10 }, () => `*a${level - 1}`).join(', ')}]`);
    writeFileSync(bomb, `${lines.join('\n')}\n`);
    const run = await hsa(['validate', bomb]);
    expect(run.status).toBe(2);
    expect(oneLine(run.stderr)).toEqual([
      expect.stringMatching(/^hsa: .*bomb\.yaml: invalid YAML: too many aliases/),
    ]);
  });

  it('a 3,000-deep JSON Schema', async () => {
    // Built as text: the value is too deep for JSON.stringify itself.
    const schema = `${'{"type":"object","properties":{"a":'.repeat(3000)}{"type":"string"}${'}}'.repeat(3000)}`;
    const marker = '"__deep__"';
    const harness = travelHarnessInput() as { tools: { items: Array<{ parameters: unknown }> } };
    (harness.tools.items[0] as { parameters: unknown }).parameters = '__deep__';
    const deep = join(folder, 'deep.json');
    writeFileSync(deep, JSON.stringify(harness).replace(marker, schema));
    const run = await hsa(['validate', deep]);
    expect([1, 2]).toContain(run.status);
    expect(oneLine(run.stderr)).toEqual([
      expect.stringMatching(/deep\.json:1:\d+: invalid JSON: nesting deeper than 256 levels/),
    ]);
    const deepYaml = join(folder, 'deep.yaml');
    writeFileSync(
      deepYaml,
      `${YAML.stringify({ ...harness, tools: undefined }).trimEnd()}\ntools: ${JSON.stringify(harness.tools).replace(marker, schema)}\n`,
    );
    const yamlRun = await hsa(['validate', deepYaml]);
    expect([1, 2]).toContain(yamlRun.status);
    expect(yamlRun.stderr).toMatch(/deeper than 256 levels/);
    // In memory, through the library: the same limit, as an issue.
    const { safeParseHarness } = await import('../../src/harness/parse-harness.js');
    const value = JSON.parse(JSON.stringify(harness).replace(marker, schema));
    const result = safeParseHarness(value);
    expect(result.success).toBe(false);
    expect(!result.success && result.issues[0]?.code).toBe('too_deep');
  });

  it('invalid UTF-8 and duplicate keys in a JSON harness are refused, as in YAML', async () => {
    const text = readFileSync(harnessFile);
    const broken = join(folder, 'latin1.json');
    const at = text.indexOf('Support agent');
    writeFileSync(
      broken,
      Buffer.concat([text.subarray(0, at), Buffer.from([0xe9, 0x20]), text.subarray(at)]),
    );
    const utf8 = await hsa(['validate', broken]);
    expect(utf8.status).toBe(2);
    expect(oneLine(utf8.stderr)).toEqual([expect.stringMatching(/latin1\.json:3:\d+: invalid UTF-8/)]);

    const duplicate = join(folder, 'duplicate.json');
    writeFileSync(
      duplicate,
      text.toString('utf8').replace('"id": "airline-support",', '"id": "airline-support",\n  "id": "other",'),
    );
    const keys = await hsa(['validate', duplicate]);
    expect(keys.status).toBe(2);
    expect(oneLine(keys.stderr)).toEqual([
      expect.stringMatching(/duplicate\.json:3:\d+: invalid JSON: duplicate key "id"/),
    ]);
  });

  it('a missing Handlebars partial fails validate, not only render', async () => {
    const harness = travelHarnessInput() as { prompt: { sections: Array<{ template: string }> } };
    (harness.prompt.sections[0] as { template: string }).template += '\n{{> footer}}';
    const file = join(folder, 'partial.json');
    writeFileSync(file, JSON.stringify(harness));
    const run = await hsa(['validate', file]);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/partial/);
  });

  it('numeric options have upper bounds', async () => {
    const run = await hsa(
      augmentArgs(join(folder, 'never.jsonl')).map((arg) => (arg === '1' ? '1e12' : arg)),
    );
    expect(run.status).toBe(2);
    expect(oneLine(run.stderr)).toEqual(['hsa: --variants must be at most 10000, got 1e12']);
    const workers = await hsa([...augmentArgs(join(folder, 'never.jsonl')), '--workers', '1000']);
    expect(workers.status).toBe(2);
    expect(oneLine(workers.stderr)).toEqual(['hsa: --workers must be at most 64, got 1000']);
    const latency = await hsa([
      'latency',
      '--endpoint',
      'http://127.0.0.1:9/v1',
      '--model',
      'm',
      '--harness',
      fixtureHarness,
      '--scenario',
      'livestream',
      '--duration',
      '1e12',
      '-o',
      join(folder, 'never-latency'),
    ]);
    expect(latency.status).toBe(2);
    expect(oneLine(latency.stderr)).toEqual(['hsa: --duration must be at most 86400, got 1e12']);
  });

  it('error messages cut quoted user data', async () => {
    const trajectory = JSON.parse(readFileSync(trajectoriesFile, 'utf8').split('\n')[0] as string);
    const call = trajectory.messages.find((message: { tool_calls?: unknown[] }) => message.tool_calls)
      .tool_calls[0];
    call.function.name = 'x'.repeat(2_000_000);
    const file = join(folder, 'long-name.jsonl');
    writeFileSync(file, `${JSON.stringify(trajectory)}\n`);
    const run = await hsa(['validate', fixtureHarness, '-t', file]);
    expect(run.status).toBe(1);
    expect(run.stdout.length + run.stderr.length).toBeLessThan(20_000);
    expect(run.stdout).toMatch(/tool "x{200}…" \(2000000 characters\) does not exist/);
  });
});

describe('--json', () => {
  it('prints errors as one JSON document too', async () => {
    const run = await hsa(['validate', join(folder, 'nope.yaml'), '--json']);
    expect(run.status).toBe(2);
    expect(JSON.parse(run.stdout)).toEqual({
      error: {
        exitCode: 2,
        kind: 'usage',
        message: `${join(folder, 'nope.yaml')}: cannot read: no such file`,
        issues: [],
      },
    });
    const unknown = await hsa(['frobnicate', '--json']);
    expect(unknown.status).toBe(2);
    expect(JSON.parse(unknown.stdout).error.kind).toBe('usage');
  });

  it('prints results as JSON on every command that reports something', async () => {
    const hash = await hsa(['hash', harnessFile, '--json']);
    expect(JSON.parse(hash.stdout).id).toBe('airline-support');
    const render = await hsa(['--json', 'render', harnessFile, '-c', join(folder, 'context.json')]);
    expect(typeof JSON.parse(render.stdout).prompt).toBe('string');
    const out = join(folder, 'rows-json.jsonl');
    const augment = await hsa([...augmentArgs(out), '--json']);
    expect(augment.status, augment.stderr).toBe(0);
    expect(JSON.parse(augment.stdout)).toMatchObject({ out, read: 2, rows: 2 });
  });

  it('--quiet prints no summary', async () => {
    const run = await hsa([...augmentArgs(join(folder, 'rows-quiet.jsonl')), '--quiet']);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('');
  });
});

describe('bad content that used to be an internal error (item 1: exit 1 or 2, never 3)', () => {
  it('a YAML alias bomb in a SKILL.md front matter, with and without --skip-invalid', async () => {
    const skills = join(folder, 'bomb-skills');
    mkdirSync(join(skills, 'bomb'), { recursive: true });
    const lines = [
      '---',
      'name: bomb',
      'description: an alias bomb',
      'a0: &a0 [x, x, x, x, x, x, x, x, x, x]',
    ];
    for (let level = 1; level < 9; level++)
      lines.push(`a${level}: &a${level} [${Array.from({ length: 10 }, () => `*a${level - 1}`).join(', ')}]`);
    writeFileSync(join(skills, 'bomb', 'SKILL.md'), `${[...lines, '---', '', 'Body.'].join('\n')}\n`);
    for (const extra of [[], ['--skip-invalid']]) {
      const run = await hsa(['import', 'skills', skills, '-o', join(folder, 'bomb-harness.yaml'), ...extra]);
      expect(run.status, run.stderr).toBe(1);
      expect(`${run.stdout}${run.stderr}`).toMatch(
        /bomb\/SKILL\.md:1 \$: invalid YAML in the front matter: too many aliases \(an alias bomb\?\)/,
      );
    }
  });

  it('explain and invert over rows that are not augmented rows name the line', async () => {
    const explain = await hsa(['explain', trajectoriesFile]);
    expect(explain.status).toBe(1);
    expect(explain.stderr).toMatch(/two\.jsonl:1: not a row written by hsa augment \(\$\.variantId: /);
    const json = await hsa(['explain', trajectoriesFile, '--json']);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout).error).toMatchObject({ exitCode: 1, kind: 'invalid' });
    const output = join(folder, 'output.json');
    writeFileSync(output, JSON.stringify({ role: 'assistant', content: 'hello' }));
    const invert = await hsa(['invert', '--rows', trajectoriesFile, '--id', 'ls-0001', '--output', output]);
    expect(invert.status).toBe(1);
    expect(invert.stderr).toMatch(/two\.jsonl:1: not a row written by hsa augment/);
  });

  it('a pipeline config with variants: 1e12 or episodes: 1e12 is refused with the path', async () => {
    for (const [name, line] of [
      ['variants', 'augment: { policy: hat, variants: 1000000000000 }'],
      ['episodes', 'inputs: { simulate: { scenario: livestream, episodes: 1000000000000 } }'],
    ] as const) {
      const config = join(folder, `huge-${name}.yaml`);
      const inputs =
        name === 'variants' ? 'inputs: { simulate: { scenario: livestream, episodes: 1 } }' : line;
      const augment = name === 'variants' ? line : 'augment: { policy: hat, variants: 1 }';
      writeFileSync(
        config,
        [
          `harness: ${join(process.cwd(), fixtureHarness)}`,
          inputs,
          augment,
          `out: ${join(folder, `huge-${name}`)}`,
          '',
        ].join('\n'),
      );
      const run = await hsa(['pipeline', 'run', config]);
      expect([1, 2], run.stderr).toContain(run.status);
      expect(`${run.stdout}${run.stderr}`).toMatch(new RegExp(`${name}.*(<=|at most|too big)`, 'i'));
    }
  });

  it('--exports trl,trl is refused before any work', async () => {
    const config = join(folder, 'twice.yaml');
    const out = join(folder, 'twice-out');
    writeFileSync(
      config,
      [
        `harness: ${join(process.cwd(), fixtureHarness)}`,
        'inputs: { simulate: { scenario: livestream, episodes: 1 } }',
        'augment: { policy: hat, variants: 1 }',
        `out: ${out}`,
        '',
      ].join('\n'),
    );
    const run = await hsa(['pipeline', 'run', config, '--exports', 'trl,trl']);
    expect(run.status).toBe(2);
    expect(oneLine(run.stderr)).toEqual(['hsa: --exports names "trl" twice; both would write exports/trl']);
    expect(existsSync(out)).toBe(false);
  });
});

describe('inputs that are not regular files, and lines that are not text (items 3 and 6)', () => {
  it('a FIFO or /dev/zero named as an input is refused at once (exit 2)', async () => {
    const fifo = join(folder, 'input.fifo');
    execFileSync('mkfifo', [fifo]);
    const run = await hsa(
      augmentArgs(join(folder, 'fifo-rows.jsonl')).map((arg) => (arg === trajectoriesFile ? fifo : arg)),
    );
    expect(run.status).toBe(2);
    expect(oneLine(run.stderr)).toEqual([`hsa: ${fifo}: cannot read: it is a FIFO, not a regular file`]);
    const zero = await hsa(['validate', '/dev/zero']);
    expect(zero.status).toBe(2);
    expect(oneLine(zero.stderr)).toEqual([
      'hsa: /dev/zero: cannot read: it is a character device, not a regular file',
    ]);
    const urandom = await hsa(['validate', fixtureHarness, '-t', '/dev/urandom']);
    expect(urandom.status).toBe(2);
    expect(oneLine(urandom.stderr)).toEqual([
      'hsa: /dev/urandom: cannot read: it is a character device, not a regular file',
    ]);
  });

  it('a JSONL line with invalid UTF-8 is rejected with its line, not read as U+FFFD; counts reconcile', async () => {
    const [first, second] = readFileSync(trajectoriesFile, 'utf8').split('\n');
    const at = (second as string).indexOf('"content":"') + 11;
    const broken = Buffer.concat([
      Buffer.from(`${first}\n${(second as string).slice(0, at)}`),
      Buffer.from([0xff]),
      Buffer.from(`${(second as string).slice(at)}\n`),
    ]);
    const file = join(folder, 'broken-utf8.jsonl');
    writeFileSync(file, broken);
    const out = join(folder, 'broken-utf8-rows.jsonl');
    const run = await hsa([
      ...augmentArgs(out).map((arg) => (arg === trajectoriesFile ? file : arg)),
      '--json',
    ]);
    expect(run.status, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ read: 2, rows: 1 });
    const rejects = readFileSync(join(folder, 'broken-utf8-rows.rejects.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rejects).toEqual([
      expect.objectContaining({
        line: 2,
        issues: [
          expect.objectContaining({
            code: 'invalid_utf8',
            message: expect.stringMatching(/^invalid UTF-8 at column \d+ \(byte 0xff\)$/),
          }),
        ],
      }),
    ]);
    expect(readFileSync(out, 'utf8')).not.toContain('\ufffd');
  });

  it('a line longer than 64 MiB is a located reject, never held whole', async () => {
    const file = join(folder, 'long-line.jsonl');
    const [first] = readFileSync(trajectoriesFile, 'utf8').split('\n');
    writeFileSync(file, `${first}\n{"pad":"${'x'.repeat(64 * 1024 * 1024)}"}\n`);
    const out = join(folder, 'long-line-rows.jsonl');
    const run = await hsa([
      ...augmentArgs(out).map((arg) => (arg === trajectoriesFile ? file : arg)),
      '--json',
    ]);
    expect(run.status, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ read: 2, rows: 1 });
    const rejects = readFileSync(join(folder, 'long-line-rows.rejects.jsonl'), 'utf8');
    expect(JSON.parse(rejects)).toMatchObject({ line: 2, issues: [{ code: 'line_too_long' }] });
  });
});

describe('outputs that collide are refused before any work (item 7)', () => {
  it('augment --sidecar X -o X, and --rejects through a link to -o', async () => {
    const out = join(folder, 'same.jsonl');
    const run = await hsa([...augmentArgs(out), '--sidecar', out]);
    expect(run.status).toBe(2);
    expect(oneLine(run.stderr)).toEqual([
      `hsa: --out and --sidecar name the same file ${out}; give each its own`,
    ]);
    expect(existsSync(out)).toBe(false);
    const link = join(folder, 'same-link.jsonl');
    symlinkSync(out, link);
    const linked = await hsa([...augmentArgs(out), '--rejects', link]);
    expect(linked.status).toBe(2);
    expect(oneLine(linked.stderr)).toEqual([
      `hsa: --out and --rejects name the same file ${link}; give each its own`,
    ]);
  });

  it('sim run --report X -o X', async () => {
    const out = join(folder, 'sim-same.jsonl');
    const run = await hsa([
      'sim',
      'run',
      '--scenario',
      'livestream',
      '--harness',
      fixtureHarness,
      '--episodes',
      '2',
      '--out',
      out,
      '--report',
      out,
    ]);
    expect(run.status).toBe(2);
    expect(oneLine(run.stderr)).toEqual([
      `hsa: --out and --report name the same file ${out}; give each its own`,
    ]);
    expect(existsSync(out)).toBe(false);
  });

  it('a rejects path under /proc is refused before the rows are written', async () => {
    const out = join(folder, 'proc-rejects.jsonl');
    const run = await hsa([...augmentArgs(out), '--rejects', '/proc/hsa-nowhere/rejects.jsonl']);
    expect(run.status).toBe(2);
    expect(oneLine(run.stderr)).toEqual([
      expect.stringMatching(/^hsa: \/proc\/hsa-nowhere\/rejects\.jsonl: cannot write: /),
    ]);
    expect(existsSync(out)).toBe(false);
  });
});
