// The drift document as a text table (stdout) and as one self-contained HTML page (offline, every value
// escaped; one SVG chart of coverage per dimension; a script that marks `data-ready` for headless checks).
import { dimensions } from '../augment/operator.js';
import { escapeHtml } from '../harness/escape-html.js';
import type { DriftDocument } from './drift.js';

/** The number of `<svg>` charts the page holds. */
export const driftChartCount = 1;

const verdict = (covered: boolean | null) =>
  covered === null ? 'regenerate' : covered ? 'covered' : 'NOT covered';

/**
 * The text table: one line per edit with its changes, then coverage per dimension and the uncovered changes.
 *
 * @example
 * process.stdout.write(renderDriftTable(document));
 */
export function renderDriftTable(document: DriftDocument): string {
  const lines: string[] = [];
  const { policy } = document;
  lines.push(
    `drift: ${document.versions.length} versions, ${document.edits.length} edits; policy ${policy.name} (severity ${policy.severity}, ${policy.samples} sampled variants per version, seed ${policy.seed})`,
  );
  for (const version of document.versions.filter((entry) => !entry.valid))
    lines.push(
      `invalid version ${version.label}: ${version.issues?.[0] ?? 'invalid'}${(version.issues?.length ?? 0) > 1 ? ` (+${(version.issues?.length ?? 1) - 1} more)` : ''}`,
    );
  const rows = document.edits.map((edit) => [
    `${edit.from} → ${edit.to}`,
    edit.taskPreserving ? 'yes' : 'no',
    verdict(edit.covered),
    edit.changes
      .map(
        (change) =>
          `${change.dimension}/${change.kind} ${change.count}/${change.total}${change.taskPreserving ? (change.covered ? ' ✓' : ' ✗') : ''}`,
      )
      .join(', ') || '-',
  ]);
  lines.push(...table(['edit', 'preserving', 'coverage', 'changes (count/total; ✓ covered, ✗ not)'], rows));
  lines.push('');
  lines.push(
    ...table(
      ['dimension', 'changes', 'preserving', 'covered'],
      dimensions.map((dimension) => {
        const count = document.byDimension[dimension];
        return [dimension, String(count.changes), String(count.taskPreserving), String(count.covered)];
      }),
    ),
  );
  if (document.uncovered.length > 0) {
    lines.push('', 'uncovered:');
    for (const entry of document.uncovered)
      lines.push(
        `  ${entry.from} → ${entry.to} ${entry.kind}: ${entry.reason}; would cover: ${entry.suggestion}`,
      );
  }
  return `${lines.join('\n')}\n`;
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ');
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)];
}

function coverageChart(document: DriftDocument): string {
  const width = 640;
  const rowHeight = 26;
  const label = 120;
  const height = 30 + dimensions.length * rowHeight;
  const most = Math.max(1, ...dimensions.map((dimension) => document.byDimension[dimension].changes));
  const scale = (value: number) => ((width - label - 40) * value) / most;
  const bars = dimensions.map((dimension, index) => {
    const count = document.byDimension[dimension];
    const y = 24 + index * rowHeight;
    return [
      `<g><title>${escapeHtml(dimension)}: ${count.changes} changes, ${count.taskPreserving} task-preserving, ${count.covered} covered</title>`,
      `<text x="${label - 8}" y="${y + 14}" class="label" text-anchor="end">${escapeHtml(dimension)}</text>`,
      `<rect x="${label}" y="${y}" width="${scale(count.changes).toFixed(1)}" height="18" class="bar-all"/>`,
      `<rect x="${label}" y="${y}" width="${scale(count.taskPreserving).toFixed(1)}" height="18" class="bar-preserving"/>`,
      `<rect x="${label}" y="${y}" width="${scale(count.covered).toFixed(1)}" height="18" class="bar-covered"/>`,
      `<text x="${(label + scale(count.changes) + 6).toFixed(1)}" y="${y + 14}" class="value">${count.covered}/${count.taskPreserving}/${count.changes}</text></g>`,
    ].join('');
  });
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="coverage per dimension"><text x="0" y="14" class="chart-title">Changes per dimension: covered / task-preserving / all</text>${bars.join('')}</svg>`;
}

const style = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1d232a;background:#fff}
h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:2rem}
table{border-collapse:collapse;margin:.5rem 0}td,th{border-bottom:1px solid #e3e7eb;padding:.25rem .6rem;text-align:left;vertical-align:top}
.chart{display:block;max-width:100%;height:auto;margin:1rem 0}.chart-title{font-weight:600;font-size:14px}.label{font-size:12px}.value{font-size:11px;fill:#5a6673}
.bar-all{fill:#e0b4b0}.bar-preserving{fill:#8aa4c8}.bar-covered{fill:#4a9d5b}
.yes{color:#2d7a3e}.no{color:#b3322b}.regen{color:#8a6d1f}input{font:inherit;padding:.2rem .4rem}
`;

const script = `
(function () {
  try {
    var input = document.getElementById('edit-filter');
    var rows = Array.prototype.slice.call(document.querySelectorAll('#edits tbody tr'));
    input.addEventListener('input', function () {
      var query = input.value.trim().toLowerCase();
      rows.forEach(function (row) { row.hidden = query !== '' && row.textContent.toLowerCase().indexOf(query) < 0; });
    });
    document.body.dataset.ready = '1';
  } catch (error) {
    document.body.dataset.error = String((error && error.message) || error);
  }
})();
`;

/**
 * The self-contained HTML page of a drift document.
 *
 * @example
 * await writeFile('drift.html', renderDriftHtml(document));
 */
export function renderDriftHtml(document: DriftDocument): string {
  const { policy } = document;
  const mark = (covered: boolean | null | undefined) =>
    covered === null || covered === undefined
      ? '<span class="regen">regenerate</span>'
      : covered
        ? '<span class="yes">covered</span>'
        : '<span class="no">not covered</span>';
  const editRows = document.edits.map((edit) => {
    const changes = edit.changes
      .map((change) => {
        const map = change.map
          ? ` (${Object.entries(change.map)
              .map(([from, to]) => `${from} → ${to}`)
              .join(', ')})`
          : '';
        const coverage = change.taskPreserving
          ? ` — ${mark(change.covered)}: ${escapeHtml(change.reason ?? '')}`
          : ' — changes the task';
        return `<li><code>${escapeHtml(`${change.dimension}/${change.kind}`)}</code> ${change.count} of ${change.total}: ${escapeHtml(change.subjects.join(', '))}${escapeHtml(map)}${coverage}</li>`;
      })
      .join('');
    return `<tr><td>${escapeHtml(edit.from)} → ${escapeHtml(edit.to)}${edit.skipped ? `<br>skipped: ${escapeHtml(edit.skipped.join(', '))}` : ''}</td><td>${edit.taskPreserving ? 'yes' : 'no'}</td><td>${mark(edit.covered)}</td><td><ul>${changes || '<li>no change</li>'}</ul></td></tr>`;
  });
  const versionRows = document.versions.map(
    (version) =>
      `<tr><td>${escapeHtml(version.label)}</td><td>${escapeHtml(version.date ?? '')}</td><td>${escapeHtml(version.subject ?? version.source)}</td><td>${version.valid ? 'valid' : `<span class="no">invalid</span>: ${escapeHtml(version.issues?.join('; ') ?? '')}`}</td></tr>`,
  );
  const kindRows = Object.entries(document.byKind).map(
    ([kind, count]) =>
      `<tr><td>${escapeHtml(kind)}</td><td>${count?.changes}</td><td>${count?.taskPreserving}</td><td>${count?.covered}</td></tr>`,
  );
  const uncoveredRows = document.uncovered.map(
    (entry) =>
      `<tr><td>${escapeHtml(entry.from)} → ${escapeHtml(entry.to)}</td><td>${escapeHtml(entry.kind)}</td><td>${escapeHtml(entry.reason)}</td><td>${escapeHtml(entry.suggestion)}</td></tr>`,
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Drift coverage</title>
<style>${style}</style>
</head>
<body>
<script>window.onerror = function (message, source, line) { document.body.dataset.error = String(message) + ' (line ' + line + ')'; };</script>
<h1>Drift coverage</h1>
<p>${document.versions.length} versions, ${document.edits.length} edits, policy <code>${escapeHtml(policy.name)}</code> at severity ${policy.severity}; ${policy.samples} sampled variants per older version (seed <code>${escapeHtml(policy.seed)}</code>, ${policy.examples} example trajectories).</p>
${coverageChart(document)}
<h2>Edits</h2>
<p><input id="edit-filter" placeholder="filter edits" aria-label="filter edits"></p>
<table id="edits"><thead><tr><th>edit</th><th>task-preserving</th><th>coverage</th><th>changes</th></tr></thead><tbody>
${editRows.join('\n')}
</tbody></table>
<h2>Per kind</h2>
<table><thead><tr><th>kind</th><th>changes</th><th>task-preserving</th><th>covered</th></tr></thead><tbody>
${kindRows.join('\n')}
</tbody></table>
<h2>Uncovered</h2>
<table><thead><tr><th>edit</th><th>kind</th><th>why</th><th>would cover it</th></tr></thead><tbody>
${uncoveredRows.join('\n') || '<tr><td colspan="4">none</td></tr>'}
</tbody></table>
<h2>Versions</h2>
<table><thead><tr><th>version</th><th>date</th><th>subject</th><th>status</th></tr></thead><tbody>
${versionRows.join('\n')}
</tbody></table>
<script>${script}</script>
</body>
</html>
`;
}
