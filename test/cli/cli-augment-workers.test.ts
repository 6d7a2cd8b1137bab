// `hsa augment --workers N` and `--shard i/n`: rows and rejects are the same bytes whatever the worker count,
// and the shards of a run are exactly its rows, each byte for byte, with none missing and none twice. Rows
// draw their variants from the variant pool (one pool, shared by the worker threads), on both fixtures.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';

let folder: string;

function augmentRun(
  fixture: string,
  name: string,
  extra: string[],
): { rows: string[]; rejects: string; status: number | null } {
  const out = join(folder, `${fixture.split('/').at(-2)}-${name}.out.jsonl`);
  const run = runCli(
    [
      'augment',
      '--harness',
      join(fixture, 'harness.yaml'),
      '--trajectories',
      join(folder, `${fixture.split('/').at(-2)}.jsonl`),
      '--variants',
      '2',
      '--seed',
      'workers',
      '--out',
      out,
      ...extra,
    ],
    { timeout: 300_000 },
  );
  // Only the up-front applicability warnings; nothing failed.
  expect(run.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('warning: '))).toEqual([]);
  const text = readFileSync(out, 'utf8');
  return {
    rows: text === '' ? [] : text.trimEnd().split('\n'),
    // Written only when something was rejected.
    rejects: existsSync(out.replace(/\.jsonl$/u, '.rejects.jsonl'))
      ? readFileSync(out.replace(/\.jsonl$/u, '.rejects.jsonl'), 'utf8')
      : '',
    status: run.status,
  };
}

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'hsa-augment-workers-'));
  for (const name of fixtures) {
    const lines = readFileSync(join(fixtureFolder(name), 'trajectories.jsonl'), 'utf8')
      .split('\n')
      .slice(0, 9);
    // A bad line among the good ones: rejects must keep their place too. (No duplicate id: a duplicate is
    // only found within one shard, so a copy in another shard would be augmented there.)
    lines.splice(3, 0, '{"id": oops}');
    writeFileSync(join(folder, `${name}.jsonl`), `${lines.join('\n')}\n`);
  }
});

afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const fixtures = ['livestream', 'helpdesk'];
const fixtureFolder = (name: string) => new URL(`../../fixtures/${name}/`, import.meta.url).pathname;

describe.each(fixtures)('hsa augment --workers and --shard on %s', (name) => {
  it('writes the same bytes with 1 and 2 worker threads, and every shard split is the whole run', () => {
    const fixture = fixtureFolder(name);
    const one = augmentRun(fixture, 'one', ['--workers', '1']);
    const two = augmentRun(fixture, 'two', ['--workers', '2']);
    // The pool is shared: some rows drew the same entry.
    const entries = one.rows.map((row) => JSON.parse(row).provenance.pool?.index);
    expect(entries.every((entry) => typeof entry === 'number')).toBe(true);
    expect(one.status).toBe(1); // the bad line is rejected
    expect(one.rows.length).toBeGreaterThan(0);
    expect(two.rows).toEqual(one.rows);
    expect(two.rejects).toBe(one.rejects);
    expect(
      one.rejects
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).reason),
    ).toEqual(['syntax_error']);

    // Two shards on one thread each, three on two threads each (a shard of one is the whole run).
    for (const [count, threads] of [
      [2, '1'],
      [3, '2'],
    ] as const) {
      const union: string[] = [];
      for (let index = 0; index < count; index++)
        union.push(
          ...augmentRun(fixture, `shard-${index}-of-${count}`, [
            '--workers',
            threads,
            '--shard',
            `${index}/${count}`,
          ]).rows,
        );
      expect(new Set(union).size).toBe(union.length);
      expect([...union].sort()).toEqual([...one.rows].sort());
    }
  }, 600_000);
});
