// The report of a real next version beside the synthetic variants says whether the synthetic gap predicts
// the real one: inside the real gap's interval, or outside it (under- or overestimated), in Markdown and HTML.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renameSymbols } from '../../src/augment/rename-symbols.js';
import { itemsFromTrajectory } from '../../src/bench/derive-items.js';
import { nextVersionBench } from '../../src/bench/next-version.js';
import { scoreNextVersion } from '../../src/bench/next-version-scores.js';
import { renderHtmlReport, renderMarkdownReport, reportChartCount } from '../../src/bench/report.js';
import type { BenchRow, Prediction } from '../../src/bench/schema.js';
import { expectationsAsPredictions, scoreBench } from '../../src/bench/score.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { TrajectorySchema } from '../../src/trajectory/schema.js';
import { projectRoot } from '../support/run-cli.js';

const helpdesk = await loadHarnessFile(`${projectRoot}/fixtures/helpdesk/harness.yaml`);
const items = readFileSync(`${projectRoot}/fixtures/helpdesk/trajectories.jsonl`, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .slice(0, 4)
  .flatMap((line) => itemsFromTrajectory(helpdesk, TrajectorySchema.parse(JSON.parse(line))).items);
// A real edit every item feels: the tool they all call is renamed.
const next = renameSymbols(helpdesk, { tools: { lookup_user: 'find_account' } }).harness;

async function nextRows(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for await (const outcome of nextVersionBench(helpdesk, next, items, { labels: { from: 'v1', to: 'v2' } }))
    if (outcome.decision === 'carried') rows.push(...outcome.rows);
  return rows;
}

describe('the next-version section of the report', () => {
  it('says the synthetic gap underestimates a real gap outside its interval', async () => {
    const rows = await nextRows();
    expect(rows.length).toBe(2 * items.length);
    // The synthetic bench: the originals and, as its only variants, copies of them (no gap at all).
    const originals = rows.filter((row) => row.variantIndex === 0);
    const copies = originals.map((row) => ({ ...row, id: `${row.itemId}/1`, variantIndex: 1 }));
    const answers = (list: BenchRow[], stale: Map<string, Prediction['output']>) =>
      list.map((row) => ({ id: row.id, output: stale.get(row.itemId) ?? [] }));
    const memorised = new Map(
      expectationsAsPredictions(originals).map((prediction, index) => [
        originals[index]?.itemId as string,
        prediction.output,
      ]),
    );
    const synthetic = scoreBench([...originals, ...copies], answers([...originals, ...copies], memorised), {
      seed: '0',
      resamples: 200,
    });
    const scores = {
      ...synthetic,
      nextVersion: scoreNextVersion(synthetic, rows, answers(rows, memorised), { seed: '0', resamples: 200 }),
    };
    // The items whose key calls the renamed tool fail under v2; none fails under the copies.
    const realGap = scores.nextVersion.real.criteria.overall.gap;
    expect(realGap.mean).toBeGreaterThan(0);
    expect(realGap.low).toBeGreaterThan(0);
    expect(scores.nextVersion.synthetic.criteria.overall.gap.mean).toBe(0);
    expect(scores.nextVersion.verdict).toEqual({
      syntheticInsideReal: false,
      difference: -(realGap.mean ?? 0),
    });
    const markdown = renderMarkdownReport(scores);
    expect(markdown).toContain('## Real next version vs synthetic variants');
    expect(markdown).toContain('the synthetic variants underestimate the real edit');
    expect(markdown).toContain(`| real: v → v2 | ${items.length} | ${items.length} | 100.0 |`);
    const html = renderHtmlReport(scores);
    expect(html.match(/<svg/g)?.length).toBe(reportChartCount(scores));
    expect(html).toContain('do not predict the real edit');
    // Without a next version, the report is what it was.
    expect(renderMarkdownReport(synthetic)).not.toContain('Real next version');
    expect(renderHtmlReport(synthetic).match(/<svg/g)?.length).toBe(reportChartCount(synthetic));
  }, 60_000);
});
