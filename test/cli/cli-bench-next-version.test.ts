// `hsa bench next-version` and `hsa bench score --next-version` on bad input: a clear error and exit code,
// every line read accounted for (carried + regenerate + rejected), inputs left byte for byte, nothing written
// outside the output folder.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hsa } from '../support/run-hsa.js';

const fixture = join(import.meta.dirname, '../drift/fixtures/github-mcp-search');
const v03 = join(fixture, 'harness/03-805358b.yaml');
const v04 = join(fixture, 'harness/04-8bd7152.yaml');

describe('hsa bench next-version on bad input', () => {
  let folder: string;
  let items: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'hsa-next-version-'));
    const lines = readFileSync(join(fixture, 'items.jsonl'), 'utf8').trim().split('\n');
    items = join(folder, 'items.jsonl');
    // Two good items, a line that is not JSON, a repeated id, an item of another harness.
    const other = JSON.parse(lines[1] as string);
    other.id = 'for-another-harness';
    other.harness = { id: 'another-harness' };
    writeFileSync(
      items,
      [lines[0], lines[1], '{"id": "broken"', lines[0], JSON.stringify(other), lines[2], ''].join('\n'),
    );
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('rejects what it cannot use, with reasons, carries the rest and exits 1', async () => {
    const before = readFileSync(items);
    const out = join(folder, 'out');
    const run = await hsa([
      'bench',
      'next-version',
      '--harness',
      v03,
      '--next',
      v04,
      '--items',
      items,
      '-o',
      out,
    ]);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toContain(
      'read 6 items: 3 carried (0 with a moved answer key) + 0 to regenerate + 3 rejected',
    );
    const rejects = readFileSync(join(out, 'rejects.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { reason: string; line: number });
    expect(rejects.map((reject) => [reject.reason, reject.line])).toEqual([
      ['invalid_item', 3],
      ['duplicate_id', 4],
      ['harness_mismatch', 5],
    ]);
    expect(readFileSync(join(out, 'rows.jsonl'), 'utf8').trim().split('\n')).toHaveLength(6);
    expect(readdirSync(out).sort()).toEqual([
      'items.jsonl',
      'next-version.json',
      'regenerate.jsonl',
      'rejects.jsonl',
      'rows.jsonl',
    ]);
    expect(readFileSync(items).equals(before)).toBe(true);
  });

  it('writes the same bytes on every run', async () => {
    const again = join(folder, 'again');
    const first = join(folder, 'first');
    for (const out of [first, again])
      await hsa(['bench', 'next-version', '--harness', v03, '--next', v04, '--items', items, '-o', out]);
    for (const file of readdirSync(first))
      expect(readFileSync(join(again, file), 'utf8'), file).toBe(readFileSync(join(first, file), 'utf8'));
  });

  it('warns when a vouched name is nothing the edit adds or redescribes', async () => {
    const run = await hsa([
      'bench',
      'next-version',
      '--harness',
      v03,
      '--next',
      v04,
      '--items',
      join(fixture, 'items.jsonl'),
      '--unrelated',
      'search_everything',
      '-o',
      join(folder, 'vouched'),
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      '--unrelated search_everything: the edit changes no task through a tool or skill of that name',
    );
  });

  it('usage errors exit 2 with one line: a missing option, a missing file', async () => {
    const missing = await hsa([
      'bench',
      'next-version',
      '--harness',
      v03,
      '--items',
      items,
      '-o',
      join(folder, 'x'),
    ]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/--next/);
    const absent = await hsa([
      'bench',
      'next-version',
      '--harness',
      v03,
      '--next',
      join(folder, 'no-such.yaml'),
      '--items',
      items,
      '-o',
      join(folder, 'y'),
    ]);
    expect(absent.status).toBe(2);
    expect(absent.stderr.trim().split('\n')).toHaveLength(1);
    expect(absent.stderr).not.toMatch(/\n\s+at /);
  });

  it('bench score: --next-predictions needs --next-version, and rows that are no next-version set are refused', async () => {
    const out = join(folder, 'out');
    const predictions = join(folder, 'predictions.jsonl');
    writeFileSync(predictions, '');
    const alone = await hsa([
      'bench',
      'score',
      '--bench',
      join(out, 'rows.jsonl'),
      '--predictions',
      predictions,
      '--next-predictions',
      predictions,
      '-o',
      join(folder, 'scores.json'),
    ]);
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain('--next-predictions needs --next-version');
    // Rows under v only (variant 0): not a next-version set.
    const originals = join(folder, 'originals.jsonl');
    writeFileSync(
      originals,
      readFileSync(join(out, 'rows.jsonl'), 'utf8')
        .split('\n')
        .filter((line) => line.includes('"variantIndex":0'))
        .join('\n'),
    );
    const wrong = await hsa([
      'bench',
      'score',
      '--bench',
      join(out, 'rows.jsonl'),
      '--predictions',
      predictions,
      '--next-version',
      originals,
      '-o',
      join(folder, 'scores.json'),
    ]);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('no row under a real next version');
  });
});
