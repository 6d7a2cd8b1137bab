// Reports of a scores document: Markdown for reading in a terminal or a pull request, and one
// self-contained HTML file (inline CSS and SVG, no network) for a browser.

import { join } from 'node:path';
import { makeFolder, writeFileAtomic } from '../harness/write-file-atomic.js';
import type { BootstrapEstimate } from './bootstrap.js';
import type { ScoresWithNextVersion } from './next-version-scores.js';
import { renderHtmlReport } from './report-html.js';
import { criteria } from './schema.js';
import type { GroupScores, ScoresDocument } from './score.js';

export { htmlChartCount, renderHtmlReport, reportChartCount } from './report-html.js';

/** A share as a percentage with one decimal, `-` when undefined. */
export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined ? '-' : `${(100 * value).toFixed(1)}`;
}

/** `mean [low, high]` in percent. */
export function formatEstimate(estimate: BootstrapEstimate): string {
  if (estimate.mean === null) return '-';
  return `${formatPercent(estimate.mean)} [${formatPercent(estimate.low)}, ${formatPercent(estimate.high)}]`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function groupTable(title: string, groups: Record<string, GroupScores>): string[] {
  const entries = Object.entries(groups).sort(
    ([, a], [, b]) => (b.criteria.overall.gap.mean ?? 0) - (a.criteria.overall.gap.mean ?? 0),
  );
  if (entries.length === 0) return [`## ${title}`, '', 'No variant row changed anything here.', ''];
  return [
    `## ${title}`,
    '',
    '| | items | variant rows | original | variants | gap [95% CI] | tool sel. gap | args gap | skill gap | reply gap |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...entries.map(([name, group]) => {
      const c = group.criteria;
      return `| ${cell(name)} | ${group.items} | ${group.rows} | ${formatPercent(c.overall.original.mean)} | ${formatPercent(c.overall.variants.mean)} | ${formatEstimate(c.overall.gap)} | ${formatPercent(c.toolSelection.gap.mean)} | ${formatPercent(c.argumentAccuracy.gap.mean)} | ${formatPercent(c.skillSelection.gap.mean)} | ${formatPercent(c.replyCompliance.gap.mean)} |`;
    }),
    '',
  ];
}

/** Says whether the per-dimension gaps can be read as the effect of each dimension. */
function attributionNote(scores: ScoresDocument): string[] {
  const attribution = scores.attribution;
  if (!attribution || attribution.variantRows === 0) return [];
  if (attribution.attributable)
    return [
      `Every variant row changed exactly one dimension (${attribution.variantRows} rows): each per-dimension gap is attributable to its dimension.`,
      '',
    ];
  return [
    `**Per-dimension gaps are confounded**: ${attribution.severalDimensions} of ${attribution.variantRows} variant rows changed several dimensions at once and count in each of them, so a gap may come from another dimension of the same rows. For attributable gaps, generate with one dimension per variant: \`hsa bench generate --attribution one-dimension\`.`,
    '',
  ];
}

/** The real next version beside the synthetic variants, when the scores hold one. */
function nextVersionSection(scores: ScoresWithNextVersion): string[] {
  const next = scores.nextVersion;
  if (!next) return [];
  const row = (label: string, group: GroupScores) => {
    const c = group.criteria.overall;
    return `| ${cell(label)} | ${group.items} | ${group.rows} | ${formatPercent(c.original.mean)} | ${formatPercent(c.variants.mean)} | ${formatEstimate(c.gap)} |`;
  };
  const real = next.real.criteria.overall.gap;
  const synthetic = next.synthetic.criteria.overall.gap;
  const verdict =
    next.verdict.syntheticInsideReal === null
      ? 'No gap to compare (no compared item has both rows).'
      : next.verdict.syntheticInsideReal
        ? `The synthetic gap (${formatPercent(synthetic.mean)}) lies inside the real gap's 95% interval [${formatPercent(real.low)}, ${formatPercent(real.high)}]: on these items the synthetic variants predict the real edit.`
        : `The synthetic gap (${formatPercent(synthetic.mean)}) lies outside the real gap's 95% interval [${formatPercent(real.low)}, ${formatPercent(real.high)}]: on these items the synthetic variants ${synthetic.mean !== null && real.mean !== null && synthetic.mean < real.mean ? 'underestimate' : 'overestimate'} the real edit.`;
  return [
    '## Real next version vs synthetic variants',
    '',
    `The real edit ${cell(next.from.label)} → ${cell(next.to.label)} (${next.changes.map((change) => `\`${change}\``).join(', ') || 'no change'}), scored on ${next.counts.compared} items that the synthetic bench also holds${next.notInSynthetic.length > 0 ? ` (${next.notInSynthetic.length} more items scored, not compared)` : ''}. Items the edit changed the task of are not here: they were marked for regeneration (\`regenerate.jsonl\` of \`hsa bench next-version\`).`,
    '',
    '| | items | rows | under v | under the change | gap [95% CI] |',
    '|---|---:|---:|---:|---:|---:|',
    row(`real: v → ${next.to.label}`, next.real),
    row('synthetic variants, same items', next.synthetic),
    row(
      `synthetic variants that changed ${next.dimensions.join(', ') || 'the same dimensions'}`,
      next.sameDimensions,
    ),
    '',
    verdict,
    '',
    ...(next.missing.length > 0
      ? [`${next.missing.length} next-version rows had no prediction and count as failures.`, '']
      : []),
  ];
}

/**
 * The Markdown report: headline numbers, per criterion, per dimension, per operator, missing predictions.
 *
 * @example
 * await writeFile('report.md', renderMarkdownReport(scores));
 */
export function renderMarkdownReport(scores: ScoresWithNextVersion): string {
  const { counts } = scores;
  const overall = scores.overall.criteria;
  const lines = [
    '# Variant benchmark report',
    '',
    `${counts.items} items, ${counts.rows} rows (${counts.originals} originals, ${counts.variants} variants), ${counts.predictions} predictions, ${counts.missing} missing. Percentages with 95% bootstrap intervals over items (${scores.resamples} resamples, seed \`${scores.seed}\`).`,
    '',
    '| | pass % [95% CI] |',
    '|---|---:|',
    `| original (variant 0) | ${formatEstimate(overall.overall.original)} |`,
    `| variants | ${formatEstimate(overall.overall.variants)} |`,
    `| **gap** (original − variants) | **${formatEstimate(overall.overall.gap)}** |`,
    `| pass^${scores.passK.k} (every row of an item passes) | ${formatEstimate(scores.passK.estimate)} |`,
    '',
    '## Per criterion',
    '',
    '| criterion | original | variants | gap [95% CI] |',
    '|---|---:|---:|---:|',
    ...criteria.map(
      (criterion) =>
        `| ${criterion} | ${formatEstimate(overall[criterion].original)} | ${formatEstimate(overall[criterion].variants)} | ${formatEstimate(overall[criterion].gap)} |`,
    ),
    '',
    ...nextVersionSection(scores),
    ...groupTable('Per dimension', scores.byDimension),
    ...attributionNote(scores),
    ...groupTable('Per operator', scores.byOperator),
  ];
  if (scores.missing.length > 0) {
    lines.push(
      '## Missing predictions',
      '',
      `${scores.missing.length} rows had no prediction and count as failures:`,
      '',
      ...scores.missing.slice(0, 50).map((id) => `- \`${id}\``),
      ...(scores.missing.length > 50 ? [`- … and ${scores.missing.length - 50} more`] : []),
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Writes `report.md` and `report.html` into a directory (atomically, each) and returns their paths.
 *
 * @example
 * await writeReport(scores, 'out/report');
 */
export async function writeReport(
  scores: ScoresWithNextVersion,
  directory: string,
): Promise<{ markdown: string; html: string }> {
  await makeFolder(directory);
  const markdown = join(directory, 'report.md');
  const html = join(directory, 'report.html');
  await writeFileAtomic(markdown, renderMarkdownReport(scores));
  await writeFileAtomic(html, renderHtmlReport(scores));
  return { markdown, html };
}
