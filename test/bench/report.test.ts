import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renameSymbols } from '../../src/augment/rename-symbols.js';
import { htmlChartCount, renderMarkdownReport, writeReport } from '../../src/bench/report.js';
import { type BenchRow, BenchRowSchema, type Expectations } from '../../src/bench/schema.js';
import {
  expectationsAsPredictions,
  mapExpectations,
  type ScoresDocument,
  scoreBench,
} from '../../src/bench/score.js';
import { toChatCompletionTools } from '../../src/harness/offered-tools.js';
import { renderSystemPrompt } from '../../src/harness/render-prompt.js';
import type { Harness } from '../../src/harness/schema.js';
import type { Relabel } from '../../src/trajectory/relabel.js';
import { projectRoot } from '../support/run-cli.js';
import { hsa } from '../support/run-hsa.js';
import { travelContext, travelHarness } from '../support/travel-harness.js';

const fares = ['basic', 'standard', 'flex'];

/** Items × (original, a tool rename, a skill rename): a bench small enough to read. */
function handBench(items = 6): BenchRow[] {
  const base = travelHarness();
  const variants: Array<{ harness: Harness; relabel: Relabel; changed: string[]; op: string }> = [
    { harness: base, relabel: { steps: [] }, changed: [], op: '' },
    {
      ...renameSymbols(base, { tools: { get_baggage_policy: 'baggage_rules' } }),
      changed: ['tools'],
      op: 'tools/rename',
    },
    {
      ...renameSymbols(base, { skills: { baggage: 'luggage' } }),
      changed: ['skill-ids'],
      op: 'skill-ids/rename',
    },
  ];
  const rows: BenchRow[] = [];
  for (let item = 0; item < items; item++) {
    const expect: Expectations = {
      toolCalls: [{ name: 'get_baggage_policy', arguments: { fare_class: fares[item % 3] } }],
      skills: ['baggage'],
      facts: ['8 kg'],
      forbidden: ['guaranteed'],
    };
    variants.forEach((variant, variantIndex) => {
      rows.push(
        BenchRowSchema.parse({
          id: `item-${item}/${variantIndex}`,
          itemId: `item-${item}`,
          variantIndex,
          variantId: `v${variantIndex}`,
          split: 'test',
          harness: variant.harness,
          input: {
            messages: [
              { role: 'system', content: renderSystemPrompt(variant.harness, travelContext) },
              { role: 'user', content: 'Baggage?' },
            ],
            tools: toChatCompletionTools(variant.harness),
          },
          expect: mapExpectations(expect, variant.relabel, 'forward', base),
          relabel: variant.relabel,
          provenance: {
            changed: variant.changed,
            ops: variant.op ? [{ name: variant.op, dimension: variant.changed[0] }] : [],
          },
          certificate: {},
        }),
      );
    });
  }
  return rows;
}

const jsonl = (values: unknown[]) => `${values.map((value) => JSON.stringify(value)).join('\n')}\n`;

// The browser is the one the devDependency @sparticuz/chromium ships, unpacked by the script itself.
const checkScript = join(projectRoot, 'scripts/check-report-in-chromium.mjs');

describe('bench score and report', () => {
  let directory: string;
  let rows: BenchRow[];
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'hsa-bench-report-'));
    rows = handBench();
    // Wrong on every fourth row, so that the report has gaps and intervals with width.
    const predictions = expectationsAsPredictions(rows).map((prediction, index) =>
      index % 4 === 1 ? { ...prediction, output: [{ role: 'assistant', content: 'no idea' }] } : prediction,
    );
    writeFileSync(join(directory, 'bench.jsonl'), jsonl(rows));
    writeFileSync(join(directory, 'predictions.jsonl'), jsonl(predictions));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('hsa bench score writes the scores and prints the table', async () => {
    const out = join(directory, 'scores.json');
    const run = await hsa([
      'bench',
      'score',
      '--bench',
      join(directory, 'bench.jsonl'),
      '--predictions',
      join(directory, 'predictions.jsonl'),
      '--out',
      out,
      '--resamples',
      '200',
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/original/);
    expect(run.stdout).toMatch(/gap/);
    expect(run.stdout).toMatch(/tools/);
    const scores = JSON.parse(readFileSync(out, 'utf8')) as ScoresDocument;
    expect(scores.format).toBe('hsa-bench-scores/1');
    expect(scores.counts).toMatchObject({ rows: rows.length, items: 6, missing: 0 });
    expect(Object.keys(scores.byDimension).sort()).toEqual(['skill-ids', 'tools']);
  });

  it('exits 1 when predictions are missing, still writing the scores with the missing ids', async () => {
    const partial = join(directory, 'partial.jsonl');
    writeFileSync(partial, jsonl(expectationsAsPredictions(rows).slice(2)));
    const out = join(directory, 'partial-scores.json');
    const run = await hsa([
      'bench',
      'score',
      '--bench',
      join(directory, 'bench.jsonl'),
      '--predictions',
      partial,
      '--out',
      out,
      '--resamples',
      '50',
    ]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/2 rows have no prediction/);
    const scores = JSON.parse(readFileSync(out, 'utf8')) as ScoresDocument;
    expect(scores.missing).toEqual([rows[0]?.id, rows[1]?.id]);
  });

  it('names the line of a bad predictions file', async () => {
    const bad = join(directory, 'bad.jsonl');
    writeFileSync(bad, `${JSON.stringify(expectationsAsPredictions(rows)[0])}\n{"id": "x", "output": 3}\n`);
    const run = await hsa([
      'bench',
      'score',
      '--bench',
      join(directory, 'bench.jsonl'),
      '--predictions',
      bad,
      '--out',
      join(directory, 'never.json'),
    ]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('bad.jsonl:2');
    const syntax = join(directory, 'syntax.jsonl');
    writeFileSync(syntax, '{"id": \n');
    const again = await hsa([
      'bench',
      'score',
      '--bench',
      syntax,
      '--predictions',
      bad,
      '--out',
      join(directory, 'never.json'),
    ]);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('syntax.jsonl:1');
  });

  it('hsa bench report writes a Markdown and a self-contained HTML report', async () => {
    const out = join(directory, 'report');
    const run = await hsa(['bench', 'report', '--scores', join(directory, 'scores.json'), '--out', out]);
    expect(run.status, run.stderr).toBe(0);
    const markdown = readFileSync(join(out, 'report.md'), 'utf8');
    expect(markdown).toMatch(/# Variant benchmark report/);
    expect(markdown).toMatch(/## Per dimension/);
    expect(markdown).toMatch(/\| tools \|/);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html.match(/<svg/g)?.length).toBe(htmlChartCount);
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<link|\ssrc=|@import|url\(/);
    expect(html).toContain('document.body.dataset.ready');
  });

  it('a report without variants still draws every chart', async () => {
    const originals = rows.filter((row) => row.variantIndex === 0);
    const scores = scoreBench(originals, expectationsAsPredictions(originals), { seed: 0, resamples: 20 });
    const written = await writeReport(scores, join(directory, 'originals-only'));
    expect(readFileSync(written.html, 'utf8').match(/<svg/g)?.length).toBe(htmlChartCount);
    expect(renderMarkdownReport(scores)).toMatch(/No variant row changed anything here/);
  });

  it('the HTML report opens in headless Chromium: ready, no error, every chart', () => {
    const report = join(directory, 'report', 'report.html');
    const run = spawnSync(process.execPath, [checkScript, report, String(htmlChartCount)], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/ok \(ready, no error, 4 charts\)/);

    // The check fails on a page whose script throws, and on a wrong chart count.
    const broken = join(directory, 'broken.html');
    writeFileSync(
      broken,
      readFileSync(report, 'utf8').replace(
        '<script>\n(function () {',
        '<script>\nundefinedFunction();\n(function () {',
      ),
    );
    const failed = spawnSync(process.execPath, [checkScript, broken, String(htmlChartCount)], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/did not finish|recorded an error/);
    const wrongCount = spawnSync(process.execPath, [checkScript, report, '5'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(wrongCount.status).toBe(1);
    expect(wrongCount.stderr).toMatch(/expected 5 <svg> charts, found 4/);
  }, 90_000);
});
