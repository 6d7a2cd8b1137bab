// A real public history: the search tools of GitHub's MCP server over 16 upstream versions (see
// fixtures/github-mcp-search/README.md). `hsa drift` describes each of the 15 edits and holds the
// task-preserving ones against `hat`; `hsa bench next-version` carries the bench items written under one
// version to the next, and scores exactly there: a renamed parameter moves the key of the items that use it,
// the answer right under v and moved scores right under v+1, the stale answer does not; a rewritten tool
// description marks the items for regeneration. `hsa bench score --next-version` puts that real gap beside
// the synthetic variants' gap, and the report shows both.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHarnessFiles, commits, holdsSameHarness } from '../../scripts/github-mcp-search-history.js';
import { reportChartCount } from '../../src/bench/report.js';
import { type BenchRow, BenchRowSchema, type Prediction } from '../../src/bench/schema.js';
import { expectationsAsPredictions, scoreRow } from '../../src/bench/score.js';
import type { DriftDocument } from '../../src/drift/drift.js';
import { relabelMessages } from '../../src/trajectory/relabel.js';
import { projectRoot } from '../support/run-cli.js';
import { hsa } from '../support/run-hsa.js';

const fixture = join(import.meta.dirname, 'fixtures/github-mcp-search');
const versions = readdirSync(join(fixture, 'harness'))
  .filter((name) => name.endsWith('.yaml'))
  .sort()
  .map((name) => join(fixture, 'harness', name));
const version = (prefix: string) => versions.find((file) => file.includes(`/${prefix}-`)) as string;
const checkScript = join(projectRoot, 'scripts/check-report-in-chromium.mjs');
const readRows = (file: string): BenchRow[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => BenchRowSchema.parse(JSON.parse(line)));

describe('the search tools of github/github-mcp-server, 16 real versions', () => {
  let out: string;
  let drift: DriftDocument;
  let driftRun: { status: number; stdout: string; stderr: string };
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'hsa-public-history-'));
    driftRun = await hsa(['drift', '--harness', ...versions, '--policy', 'hat', '-o', join(out, 'drift')]);
    drift = JSON.parse(readFileSync(join(out, 'drift', 'drift.json'), 'utf8'));
  }, 300_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('holds the harness files the MCP importer makes of the checked-in tool lists, one per upstream version', async () => {
    const built = await buildHarnessFiles();
    expect(built.map((entry) => join(fixture, 'harness', entry.name))).toEqual(versions);
    for (const entry of built) expect(await holdsSameHarness(entry.name, entry.text), entry.name).toBe(true);
    // Each file names the upstream commit it was read at, in history order.
    const named = versions.map((file) => /-([0-9a-f]{7})\.yaml$/.exec(file)?.[1]);
    const order = named.map((short) => commits.findIndex((commit) => commit.startsWith(short ?? '-')));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('hsa drift describes all 15 edits, and says of each task-preserving change whether hat covers it and why', () => {
    expect(driftRun.status, driftRun.stderr).toBe(0);
    expect(drift.versions).toHaveLength(16);
    expect(drift.edits).toHaveLength(15);
    expect(drift.edits.map((edit) => edit.changes.map((change) => change.kind))).toEqual([
      ['parameter-renamed', 'tool-description-reworded'],
      ['parameter-renamed', 'tool-description-reworded', 'tool-added'],
      ['optional-parameter-added'],
      ['parameter-renamed'],
      ['tool-description-reworded', 'tool-description-changed'],
      ['tool-description-reworded'],
      ['optional-parameter-added'],
      ['optional-parameter-added'],
      ['tool-added'],
      [],
      ['tool-description-changed'],
      ['tool-added'],
      [],
      ['optional-parameter-added'],
      ['tool-description-reworded', 'tool-description-changed'],
    ]);
    expect(drift.edits[3]?.changes[0]).toMatchObject({ map: { 'search_code.q': 'query' }, count: 1 });
    for (const edit of drift.edits) {
      expect(edit.covered === null).toBe(!edit.taskPreserving);
      for (const change of edit.changes.filter((entry) => entry.taskPreserving)) {
        expect(typeof change.covered).toBe('boolean');
        expect(change.reason?.length).toBeGreaterThan(0);
      }
    }
    // Every task-preserving edit is covered by the 32 sampled `hat` variants per version.
    expect(drift.edits.filter((edit) => edit.covered === true)).toHaveLength(9);
    expect(drift.uncovered).toEqual([]);
  });

  it('carries the items of 03 to 04 and 05 exactly; the stale answer fails where q became query', async () => {
    const items = join(fixture, 'items.jsonl');
    const to04 = await hsa([
      'bench',
      'next-version',
      '--harness',
      version('03'),
      '--next',
      version('04'),
      '--items',
      items,
      '-o',
      join(out, 'next-04'),
    ]);
    expect(to04.status, to04.stderr).toBe(0);
    expect(to04.stdout).toContain('read 11 items: 11 carried (0 with a moved answer key) + 0 to regenerate');
    const to05 = await hsa([
      'bench',
      'next-version',
      '--harness',
      version('04'),
      '--next',
      version('05'),
      '--items',
      join(out, 'next-04', 'items.jsonl'),
      '-o',
      join(out, 'next-05'),
    ]);
    expect(to05.status, to05.stderr).toBe(0);
    expect(to05.stdout).toContain('read 11 items: 11 carried (3 with a moved answer key) + 0 to regenerate');
    const summary = JSON.parse(readFileSync(join(out, 'next-05', 'next-version.json'), 'utf8'));
    const rows = readRows(join(out, 'next-05', 'rows.jsonl'));
    expect(rows).toHaveLength(22);
    const moved = summary.items.filter((entry: { keyMoved: boolean }) => entry.keyMoved);
    expect(moved.map((entry: { itemId: string }) => entry.itemId)).toEqual([
      'gh-01-turn-1',
      'gh-02-turn-1',
      'gh-07-turn-1',
    ]);
    const relabel = rows.find((row) => row.variantIndex === 1)?.relabel as never;
    for (const [underV, underNext] of pairs(rows)) {
      expect(underNext.expect.toolCalls.every((call) => !('q' in call.arguments))).toBe(true);
      const answer = expectationsAsPredictions([underV])[0] as Prediction;
      expect(scoreRow(underV, answer).overall).toBe(true);
      const mapped = { id: underNext.id, output: relabelMessages(answer.output, relabel, 'forward') };
      expect(scoreRow(underNext, mapped).overall, underNext.id).toBe(true);
      const keyMoved = moved.some((entry: { itemId: string }) => entry.itemId === underNext.itemId);
      expect(scoreRow(underNext, answer).overall, `${underNext.id} stale`).toBe(!keyMoved);
    }
  });

  it('marks every item for regeneration where the descriptions were rewritten (05 → 06), naming the reason', async () => {
    const run = await hsa([
      'bench',
      'next-version',
      '--harness',
      version('05'),
      '--next',
      version('06'),
      '--items',
      join(out, 'next-05', 'items.jsonl'),
      '-o',
      join(out, 'next-06'),
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('0 carried (0 with a moved answer key) + 11 to regenerate');
    const marked = readFileSync(join(out, 'next-06', 'regenerate.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { itemId: string; reasons: string[] });
    expect(marked.find((entry) => entry.itemId === 'gh-01-turn-1')?.reasons[0]).toBe(
      'tool-description-changed search_code: the item calls search_code',
    );
    expect(marked.find((entry) => entry.itemId === 'gh-03-turn-1')?.reasons[0]).toMatch(
      /^tool-description-changed search_code: its description, read to choose a tool for any request, was rewritten/,
    );
    expect(readFileSync(join(out, 'next-06', 'rows.jsonl'), 'utf8')).toBe('');
    // Vouching that the issue and pull-request items do not depend on the three rewritten descriptions.
    const vouched = await hsa([
      'bench',
      'next-version',
      '--harness',
      version('05'),
      '--next',
      version('06'),
      '--items',
      join(out, 'next-05', 'items.jsonl'),
      '--unrelated',
      'search_code',
      'search_repositories',
      'search_users',
      '-o',
      join(out, 'next-06-vouched'),
    ]);
    expect(vouched.stdout).toContain('5 carried (0 with a moved answer key) + 6 to regenerate');
  });

  it('scores the real gap beside the synthetic one; the report shows both and opens in Chromium', async () => {
    const bench = join(out, 'bench-04.jsonl');
    const generate = await hsa([
      'bench',
      'generate',
      '--harness',
      version('04'),
      '--items',
      join(out, 'next-04', 'items.jsonl'),
      '--variants',
      '4',
      '--inline-harness',
      '-o',
      bench,
    ]);
    expect(generate.status, generate.stderr).toBe(0);
    // A model that memorised version 04: whatever the harness says, it answers as the key of 04 does.
    const synthetic = readRows(bench);
    const next = readRows(join(out, 'next-05', 'rows.jsonl'));
    const memorised = new Map(
      expectationsAsPredictions(synthetic.filter((row) => row.variantIndex === 0)).map(
        (prediction, index) => [
          synthetic.filter((row) => row.variantIndex === 0)[index]?.itemId,
          prediction.output,
        ],
      ),
    );
    const predictions = (rows: BenchRow[]) =>
      rows.map((row) => JSON.stringify({ id: row.id, output: memorised.get(row.itemId) })).join('\n');
    writeFileSync(join(out, 'p.jsonl'), `${predictions(synthetic)}\n`);
    writeFileSync(join(out, 'pn.jsonl'), `${predictions(next)}\n`);
    const score = await hsa([
      'bench',
      'score',
      '--bench',
      bench,
      '--predictions',
      join(out, 'p.jsonl'),
      '--next-version',
      join(out, 'next-05', 'rows.jsonl'),
      '--next-predictions',
      join(out, 'pn.jsonl'),
      '-o',
      join(out, 'scores.json'),
    ]);
    expect(score.status, score.stderr).toBe(0);
    const scores = JSON.parse(readFileSync(join(out, 'scores.json'), 'utf8'));
    expect(scores.nextVersion.counts).toEqual({
      rows: 22,
      items: 11,
      compared: 11,
      predictions: 22,
      missing: 0,
    });
    // The three items whose key moved fail under 05: 8 of 11 pass.
    expect(scores.nextVersion.real.criteria.overall.original.mean).toBe(1);
    expect(scores.nextVersion.real.criteria.overall.variants.mean).toBeCloseTo(8 / 11, 10);
    expect(scores.nextVersion.synthetic.rows).toBe(44);
    expect(score.stdout).toMatch(/real next version 04-8bd7152\.yaml → 05-efef8ae\.yaml/);
    const report = await hsa([
      'bench',
      'report',
      '--scores',
      join(out, 'scores.json'),
      '-o',
      join(out, 'report'),
    ]);
    expect(report.status, report.stderr).toBe(0);
    const markdown = readFileSync(join(out, 'report', 'report.md'), 'utf8');
    expect(markdown).toContain('## Real next version vs synthetic variants');
    expect(markdown).toMatch(/\| real: v → 05-efef8ae\.yaml \| 11 \| 11 \| 100\.0 \| 72\.7 \| 27\.3 /);
    const html = join(out, 'report', 'report.html');
    expect(readFileSync(html, 'utf8')).toContain('Real next version vs synthetic variants');
    const check = spawnSync(process.execPath, [checkScript, html, String(reportChartCount(scores))], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(reportChartCount(scores)).toBe(5);
    expect(check.status, `${check.stdout}\n${check.stderr}`).toBe(0);
  }, 240_000);
});

/** The rows of a next-version set as (under v, under v+1) pairs, in item order. */
function pairs(rows: BenchRow[]): Array<[BenchRow, BenchRow]> {
  const result: Array<[BenchRow, BenchRow]> = [];
  for (const row of rows.filter((entry) => entry.variantIndex === 0)) {
    const next = rows.find((entry) => entry.itemId === row.itemId && entry.variantIndex === 1);
    if (next) result.push([row, next]);
  }
  return result;
}
