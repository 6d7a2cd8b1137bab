// The HTML report: one self-contained file that works offline. Inline CSS, SVG charts drawn here, and a
// tiny script (a row filter) that marks `document.body.dataset.ready = "1"` when done and records any error
// in `document.body.dataset.error`, so that a headless browser can check it.

import { escapeHtml } from '../harness/escape-html.js';
import type { BootstrapEstimate } from './bootstrap.js';
import type { ScoresWithNextVersion } from './next-version-scores.js';
import { type Criterion, criteria } from './schema.js';
import type { GroupScores, ScoresDocument } from './score.js';

/**
 * The number of `<svg>` charts every report holds (a chart without data says so, it is never dropped); a
 * report with a real next version holds one more (`reportChartCount`).
 */
export const htmlChartCount = 4;

/**
 * The number of `<svg>` charts the report of these scores holds.
 *
 * @example
 * reportChartCount(scores) // 5 with a real next version, else 4
 */
export function reportChartCount(scores: ScoresWithNextVersion): number {
  return htmlChartCount + (scores.nextVersion ? 1 : 0);
}

const criterionLabels: Record<Criterion, string> = {
  toolSelection: 'tool selection',
  argumentAccuracy: 'argument accuracy',
  skillSelection: 'skill selection',
  replyCompliance: 'reply compliance',
  overall: 'overall',
};

function pct(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined || Number.isNaN(value)
    ? '-'
    : `${(100 * value).toFixed(digits)}`;
}

function estimateText(estimate: BootstrapEstimate): string {
  return estimate.mean === null ? '-' : `${pct(estimate.mean)} [${pct(estimate.low)}, ${pct(estimate.high)}]`;
}

const n = (value: number) => Number(value.toFixed(2));

/** A horizontal bar chart of gaps (original − variants) with 95% interval whiskers, one bar per group. */
function gapChart(title: string, groups: Record<string, GroupScores>): string {
  const entries = Object.entries(groups).sort(
    ([, a], [, b]) => (b.criteria.overall.gap.mean ?? 0) - (a.criteria.overall.gap.mean ?? 0),
  );
  // Wide enough for the longest name (about 7.5 px a character at the label's font size).
  const label = Math.max(120, Math.ceil(16 + 7.5 * Math.max(0, ...entries.map(([name]) => name.length))));
  const width = label + 470;
  const plot = width - label - 60;
  const rowHeight = 26;
  const top = 30;
  const height = top + Math.max(1, entries.length) * rowHeight + 30;
  const values = entries.flatMap(([, group]) => {
    const gap = group.criteria.overall.gap;
    return [gap.mean ?? 0, gap.low ?? 0, gap.high ?? 0];
  });
  const low = Math.min(-0.1, ...values);
  const high = Math.max(0.1, ...values);
  const x = (value: number) => n(label + ((value - low) / (high - low)) * plot);
  const parts: string[] = [
    `<text x="0" y="16" class="chart-title">${escapeHtml(title)}</text>`,
    `<line x1="${x(0)}" y1="${top - 6}" x2="${x(0)}" y2="${height - 24}" class="axis"/>`,
    `<text x="${x(low)}" y="${height - 8}" class="tick">${pct(low, 0)}</text>`,
    `<text x="${x(0)}" y="${height - 8}" class="tick" text-anchor="middle">0</text>`,
    `<text x="${x(high)}" y="${height - 8}" class="tick" text-anchor="end">${pct(high, 0)} pts</text>`,
  ];
  if (entries.length === 0)
    parts.push(
      `<text x="${label}" y="${top + 16}" class="empty">no variant row changed anything here</text>`,
    );
  entries.forEach(([name, group], index) => {
    const gap = group.criteria.overall.gap;
    const y = top + index * rowHeight;
    const mean = gap.mean ?? 0;
    const from = Math.min(x(0), x(mean));
    const barWidth = n(Math.abs(x(mean) - x(0)));
    parts.push(
      `<g class="bar-row"><title>${escapeHtml(name)}: gap ${escapeText(gap)} over ${group.rows} variant rows of ${group.items} items</title>`,
      `<text x="${label - 8}" y="${y + 15}" class="label" text-anchor="end">${escapeHtml(name)}</text>`,
      `<rect x="${from}" y="${y + 4}" width="${Math.max(barWidth, 0.5)}" height="${rowHeight - 10}" class="${mean > 0 ? 'bar-gap' : 'bar-gain'}"/>`,
    );
    if (gap.low !== null && gap.high !== null) {
      const middle = y + rowHeight / 2 - 1;
      parts.push(
        `<line x1="${x(gap.low)}" y1="${middle}" x2="${x(gap.high)}" y2="${middle}" class="whisker"/>`,
        `<line x1="${x(gap.low)}" y1="${middle - 5}" x2="${x(gap.low)}" y2="${middle + 5}" class="whisker"/>`,
        `<line x1="${x(gap.high)}" y1="${middle - 5}" x2="${x(gap.high)}" y2="${middle + 5}" class="whisker"/>`,
      );
    }
    parts.push(
      `<text x="${width - 4}" y="${y + 15}" class="value" text-anchor="end">${pct(gap.mean)}</text></g>`,
    );
  });
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(title)}">${parts.join('')}</svg>`;
}

function escapeText(estimate: BootstrapEstimate): string {
  return escapeHtml(estimateText(estimate));
}

/** Grouped bars per criterion: originals and variants, 0-100%, with whiskers. */
function criteriaChart(scores: ScoresDocument): string {
  const width = 640;
  const height = 260;
  const left = 40;
  const top = 30;
  const bottom = 50;
  const plotHeight = height - top - bottom;
  const slot = (width - left) / criteria.length;
  const y = (value: number) => n(top + (1 - value) * plotHeight);
  const parts: string[] = [
    `<text x="0" y="16" class="chart-title">Pass rate per criterion: original vs variants</text>`,
    ...[0, 0.5, 1].map(
      (tick) =>
        `<line x1="${left}" y1="${y(tick)}" x2="${width}" y2="${y(tick)}" class="grid"/><text x="${left - 6}" y="${y(tick) + 4}" class="tick" text-anchor="end">${pct(tick, 0)}</text>`,
    ),
  ];
  criteria.forEach((criterion, index) => {
    const comparison = scores.overall.criteria[criterion];
    const x0 = left + index * slot + slot * 0.15;
    const barWidth = slot * 0.33;
    (['original', 'variants'] as const).forEach((which, position) => {
      const estimate = comparison[which];
      const value = estimate.mean ?? 0;
      const x = n(x0 + position * (barWidth + 4));
      parts.push(
        `<g><title>${escapeHtml(criterionLabels[criterion])}, ${which}: ${escapeText(estimate)}</title>`,
        `<rect x="${x}" y="${y(value)}" width="${n(barWidth)}" height="${n(y(0) - y(value))}" class="bar-${which}"/>`,
      );
      if (estimate.low !== null && estimate.high !== null) {
        const middle = n(x + barWidth / 2);
        parts.push(
          `<line x1="${middle}" y1="${y(estimate.low)}" x2="${middle}" y2="${y(estimate.high)}" class="whisker"/>`,
        );
      }
      parts.push('</g>');
    });
    parts.push(
      `<text x="${n(left + index * slot + slot / 2)}" y="${height - bottom + 18}" class="label" text-anchor="middle">${escapeHtml(criterionLabels[criterion])}</text>`,
    );
  });
  parts.push(
    `<rect x="${left}" y="${height - 18}" width="12" height="12" class="bar-original"/><text x="${left + 16}" y="${height - 8}" class="tick">original</text>`,
    `<rect x="${left + 90}" y="${height - 18}" width="12" height="12" class="bar-variants"/><text x="${left + 106}" y="${height - 8}" class="tick">variants</text>`,
  );
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="pass rate per criterion">${parts.join('')}</svg>`;
}

/** Per-item variant pass rates (overall), as a histogram of ten bins. */
function itemDistribution(scores: ScoresDocument): { bins: number[]; items: number } {
  const byItem = new Map<string, { pass: number; count: number }>();
  for (const row of scores.rows) {
    if (row.variantIndex === 0) continue;
    const entry = byItem.get(row.itemId) ?? { pass: 0, count: 0 };
    entry.count++;
    if (row.scores.overall) entry.pass++;
    byItem.set(row.itemId, entry);
  }
  const bins = Array.from({ length: 10 }, () => 0);
  for (const { pass, count } of byItem.values()) {
    const bin = Math.min(9, Math.floor((pass / count) * 10));
    bins[bin] = (bins[bin] as number) + 1;
  }
  return { bins, items: byItem.size };
}

function distributionChart(scores: ScoresDocument): string {
  const { bins, items } = itemDistribution(scores);
  const width = 640;
  const height = 220;
  const left = 40;
  const top = 30;
  const bottom = 40;
  const plotHeight = height - top - bottom;
  const most = Math.max(1, ...bins);
  const slot = (width - left) / bins.length;
  const parts: string[] = [
    `<text x="0" y="16" class="chart-title">Items by share of their variants passed (${items} items)</text>`,
    `<line x1="${left}" y1="${top + plotHeight}" x2="${width}" y2="${top + plotHeight}" class="axis"/>`,
  ];
  if (items === 0) parts.push(`<text x="${left + 10}" y="${top + 20}" class="empty">no variant rows</text>`);
  bins.forEach((count, index) => {
    const barHeight = n((count / most) * plotHeight);
    const x = n(left + index * slot + 2);
    parts.push(
      `<g><title>${index * 10}-${index === 9 ? 100 : index * 10 + 10}%: ${count} items</title><rect x="${x}" y="${n(top + plotHeight - barHeight)}" width="${n(slot - 4)}" height="${barHeight}" class="bar-variants"/></g>`,
      `<text x="${n(x + slot / 2 - 2)}" y="${height - bottom + 16}" class="tick" text-anchor="middle">${index * 10}%</text>`,
    );
    if (count > 0)
      parts.push(
        `<text x="${n(x + slot / 2 - 2)}" y="${n(top + plotHeight - barHeight - 4)}" class="tick" text-anchor="middle">${count}</text>`,
      );
  });
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="distribution of per-item scores">${parts.join('')}</svg>`;
}

function groupRows(groups: Record<string, GroupScores>): string {
  const entries = Object.entries(groups);
  if (entries.length === 0) return '<tr><td colspan="6">none</td></tr>';
  return entries
    .map(
      ([name, group]) =>
        `<tr><td>${escapeHtml(name)}</td><td>${group.items}</td><td>${group.rows}</td><td>${pct(group.criteria.overall.original.mean)}</td><td>${pct(group.criteria.overall.variants.mean)}</td><td>${escapeText(group.criteria.overall.gap)}</td></tr>`,
    )
    .join('\n');
}

/** The real next version beside the synthetic variants: a gap chart of the three groups and their table. */
function nextVersionHtml(scores: ScoresWithNextVersion): string {
  const next = scores.nextVersion;
  if (!next) return '';
  const groups: Record<string, GroupScores> = {
    [`real: v → ${next.to.label}`]: next.real,
    'synthetic variants, same items': next.synthetic,
    [`synthetic, changed ${next.dimensions.join(', ') || 'the same dimensions'}`]: next.sameDimensions,
  };
  const inside = next.verdict.syntheticInsideReal;
  const verdict =
    inside === null
      ? 'No gap to compare.'
      : inside
        ? 'The synthetic gap lies inside the real gap’s 95% interval: on these items the synthetic variants predict the real edit.'
        : 'The synthetic gap lies outside the real gap’s 95% interval: on these items the synthetic variants do not predict the real edit.';
  return `<h2>Real next version vs synthetic variants</h2>
<p>The real edit <code>${escapeHtml(next.from.label)}</code> → <code>${escapeHtml(next.to.label)}</code> (${escapeHtml(next.changes.join(', ') || 'no change')}), on ${next.counts.compared} items the synthetic bench also holds. Items whose task the edit changed are marked for regeneration and not scored.</p>
<div class="cards">
${card('real gap (v → next), pts', next.real.criteria.overall.gap)}
${card('synthetic gap, same items, pts', next.synthetic.criteria.overall.gap)}
</div>
${gapChart('Gap (v − changed harness): the real next version vs synthetic variants, pts, 95% CI', groups)}
<table><thead><tr><th></th><th>items</th><th>rows</th><th>under v</th><th>under the change</th><th>gap [95% CI]</th></tr></thead><tbody>
${groupRows(groups)}
</tbody></table>
<p>${escapeHtml(verdict)}</p>`;
}

const card = (label: string, estimate: BootstrapEstimate) =>
  `<div class="card"><span>${escapeHtml(label)}</span><b>${pct(estimate.mean)}</b><span>95% CI ${pct(estimate.low)} – ${pct(estimate.high)}</span></div>`;

const style = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1d232a;background:#fff}
h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:2rem}
.cards{display:flex;gap:1rem;flex-wrap:wrap}.card{border:1px solid #d5dbe1;border-radius:6px;padding:.6rem 1rem;min-width:10rem}
.card b{display:block;font-size:1.4rem}.card span{color:#5a6673;font-size:.85rem}
table{border-collapse:collapse;margin:.5rem 0}td,th{border-bottom:1px solid #e3e7eb;padding:.25rem .6rem;text-align:right}
td:first-child,th:first-child{text-align:left}
.chart{display:block;max-width:100%;height:auto;margin:1rem 0}
.chart-title{font-weight:600;font-size:14px}.label{font-size:12px}.tick,.value{font-size:11px;fill:#5a6673}.empty{font-size:12px;fill:#8a96a3}
.axis{stroke:#5a6673}.grid{stroke:#e3e7eb}.whisker{stroke:#1d232a;stroke-width:1.5}
.bar-gap{fill:#d9544d}.bar-gain{fill:#4a9d5b}.bar-original{fill:#8aa4c8}.bar-variants{fill:#2f5f98}
.pass{color:#2d7a3e}.fail{color:#b3322b}input{font:inherit;padding:.2rem .4rem}
`;

const script = `
(function () {
  try {
    var input = document.getElementById('row-filter');
    var rows = Array.prototype.slice.call(document.querySelectorAll('#rows tbody tr'));
    input.addEventListener('input', function () {
      var query = input.value.trim().toLowerCase();
      var shown = 0;
      rows.forEach(function (row) {
        var hidden = query !== '' && row.textContent.toLowerCase().indexOf(query) < 0;
        row.hidden = hidden;
        if (!hidden) shown++;
      });
      document.getElementById('row-count').textContent = String(shown);
    });
    document.getElementById('row-count').textContent = String(rows.length);
    document.body.dataset.ready = '1';
  } catch (error) {
    document.body.dataset.error = String((error && error.message) || error);
  }
})();
`;

const rowLimit = 2000;

/**
 * The self-contained HTML report: headline cards, charts (gap per dimension and per operator with 95%
 * whiskers, pass rate per criterion, per-item distribution) and tables.
 *
 * @example
 * await writeFile('report.html', renderHtmlReport(scores));
 */
export function renderHtmlReport(scores: ScoresWithNextVersion): string {
  const overall = scores.overall.criteria.overall;
  const { counts } = scores;
  const shownRows = scores.rows.slice(0, rowLimit);
  const mark = (value: boolean) => (value ? '<span class="pass">✓</span>' : '<span class="fail">✗</span>');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Variant benchmark report</title>
<style>${style}</style>
</head>
<body>
<script>window.onerror = function (message, source, line) { document.body.dataset.error = String(message) + ' (line ' + line + ')'; };</script>
<h1>Variant benchmark report</h1>
<p>${counts.items} items, ${counts.rows} rows (${counts.originals} originals, ${counts.variants} variants), ${counts.predictions} predictions, ${counts.missing} missing. Pass rates in %, 95% bootstrap intervals over items (${scores.resamples} resamples, seed <code>${escapeHtml(scores.seed)}</code>).</p>
<div class="cards">
${card('original (variant 0)', overall.original)}
${card('variants', overall.variants)}
${card('gap (original − variants), pts', overall.gap)}
${card(`pass^${scores.passK.k}`, scores.passK.estimate)}
</div>
${nextVersionHtml(scores)}
<h2>Gap per dimension</h2>
${gapChart('Gap (original − variants) per dimension, pts, 95% CI', scores.byDimension)}
<table><thead><tr><th>dimension</th><th>items</th><th>variant rows</th><th>original</th><th>variants</th><th>gap [95% CI]</th></tr></thead><tbody>
${groupRows(scores.byDimension)}
</tbody></table>
<h2>Gap per operator</h2>
${gapChart('Gap (original − variants) per operator, pts, 95% CI', scores.byOperator)}
<table><thead><tr><th>operator</th><th>items</th><th>variant rows</th><th>original</th><th>variants</th><th>gap [95% CI]</th></tr></thead><tbody>
${groupRows(scores.byOperator)}
</tbody></table>
<h2>Per criterion</h2>
${criteriaChart(scores)}
<table><thead><tr><th>criterion</th><th>original</th><th>variants</th><th>gap [95% CI]</th></tr></thead><tbody>
${criteria
  .map(
    (criterion) =>
      `<tr><td>${criterionLabels[criterion]}</td><td>${escapeText(scores.overall.criteria[criterion].original)}</td><td>${escapeText(scores.overall.criteria[criterion].variants)}</td><td>${escapeText(scores.overall.criteria[criterion].gap)}</td></tr>`,
  )
  .join('\n')}
</tbody></table>
<h2>Per item</h2>
${distributionChart(scores)}
<h2>Rows</h2>
<p><label>Filter <input id="row-filter" type="search" placeholder="row id, dimension, operator…"></label> <span id="row-count">${shownRows.length}</span> rows shown${scores.rows.length > rowLimit ? ` (the first ${rowLimit} of ${scores.rows.length})` : ''}.</p>
<table id="rows"><thead><tr><th>row</th><th>variant</th><th>changed</th><th>tools</th><th>args</th><th>skills</th><th>reply</th><th>overall</th></tr></thead><tbody>
${shownRows
  .map(
    (row) =>
      `<tr><td>${escapeHtml(row.id)}${row.missing ? ' (missing)' : ''}</td><td>${row.variantIndex}</td><td>${escapeHtml(row.changed.join(', ') || '-')}</td><td>${mark(row.scores.toolSelection)}</td><td>${mark(row.scores.argumentAccuracy)}</td><td>${mark(row.scores.skillSelection)}</td><td>${mark(row.scores.replyCompliance)}</td><td>${mark(row.scores.overall)}</td></tr>`,
  )
  .join('\n')}
</tbody></table>
<script>${script}</script>
</body>
</html>
`;
}
