// The latency report as Markdown and as one offline HTML file (inline CSS, an SVG chart of P50/P95/P99 per
// measured quantity against the deadline, `document.body.dataset.ready` set once drawn, as the bench report).
import { escapeHtml } from '../harness/escape-html.js';
import type { LatencyReport, LatencyStats } from './latency.js';

const rowsOf = (report: LatencyReport): Array<[string, LatencyStats]> => [
  ['turn (end to end)', report.turn],
  ['model call', report.modelCall],
  ...(report.timeToFirstToken
    ? [['time to first token', report.timeToFirstToken] as [string, LatencyStats]]
    : []),
  ['loop overhead per turn', report.overheadPerTurn],
];

const fixed = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));

/**
 * The report as a Markdown table.
 *
 * @example
 * await writeFile('latency.md', renderLatencyMarkdown(report));
 */
export function renderLatencyMarkdown(report: LatencyReport): string {
  const lines = [
    `# Latency: ${report.scenario} on ${report.harness}`,
    '',
    `${report.episodes} episodes, ${report.turns} turns, ${report.modelCalls} model calls at concurrency ${report.concurrency} in ${(report.wallMs / 1000).toFixed(1)} s.`,
    `${(100 * report.underDeadline).toFixed(1)}% of turns ended within the ${report.deadlineMs / 1000} s deadline; ${report.turnsPerEpisode.mean} turns per episode, ${report.stepsPerTurn} model calls per turn.`,
    '',
    '| ms | count | mean | P50 | P95 | P99 | max |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rowsOf(report).map(
      ([name, stats]) =>
        `| ${name} | ${stats.count} | ${fixed(stats.mean)} | ${fixed(stats.p50)} | ${fixed(stats.p95)} | ${fixed(stats.p99)} | ${fixed(stats.max)} |`,
    ),
  ];
  if (report.errors.episodes > 0)
    lines.push('', `${report.errors.episodes} episodes failed: ${report.errors.messages.join('; ')}`);
  if (report.server)
    lines.push(
      '',
      '## Server metrics (/metrics)',
      '',
      '```json',
      JSON.stringify(report.server, null, 2),
      '```',
    );
  return `${lines.join('\n')}\n`;
}

/** Grouped bars: P50, P95, P99 per quantity, on one millisecond axis, with the deadline as a line when in range. */
function percentileChart(report: LatencyReport): string {
  const rows = rowsOf(report);
  const label = 180;
  const plot = 460;
  const rowHeight = 54;
  const top = 34;
  const height = top + rows.length * rowHeight + 34;
  const high = Math.max(1, ...rows.map(([, stats]) => stats.p99));
  const x = (value: number) => Number((label + (value / high) * plot).toFixed(2));
  const colours = ['#4c78a8', '#f58518', '#e45756'];
  const parts = [`<text x="0" y="16" class="chart-title">P50 / P95 / P99 (ms)</text>`];
  rows.forEach(([name, stats], row) => {
    const y = top + row * rowHeight;
    parts.push(`<text x="0" y="${y + 24}" class="label">${escapeHtml(name)}</text>`);
    [stats.p50, stats.p95, stats.p99].forEach((value, index) => {
      const barY = y + index * 14;
      parts.push(
        `<rect x="${label}" y="${barY}" width="${Math.max(0.5, x(value) - label)}" height="12" fill="${colours[index]}"><title>${escapeHtml(name)} P${[50, 95, 99][index]}: ${fixed(value)} ms</title></rect>`,
        `<text x="${x(value) + 4}" y="${barY + 10}" class="value">${fixed(value)}</text>`,
      );
    });
  });
  if (report.deadlineMs <= high) {
    const at = x(report.deadlineMs);
    parts.push(
      `<line x1="${at}" y1="${top - 6}" x2="${at}" y2="${height - 28}" class="deadline"/>`,
      `<text x="${at + 4}" y="${top - 10}" class="value">deadline ${report.deadlineMs / 1000} s</text>`,
    );
  }
  parts.push(
    `<text x="${label}" y="${height - 10}" class="value">0</text>`,
    `<text x="${label + plot - 40}" y="${height - 10}" class="value">${fixed(high)} ms</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${label + plot + 80}" height="${height}" role="img">${parts.join('')}</svg>`;
}

/**
 * The report as one self-contained HTML page (works offline).
 *
 * @example
 * await writeFile('latency.html', renderLatencyHtml(report));
 */
export function renderLatencyHtml(report: LatencyReport): string {
  const table = rowsOf(report)
    .map(
      ([name, stats]) =>
        `<tr><td>${escapeHtml(name)}</td><td>${stats.count}</td><td>${fixed(stats.mean)}</td><td>${fixed(stats.p50)}</td><td>${fixed(stats.p95)}</td><td>${fixed(stats.p99)}</td><td>${fixed(stats.max)}</td></tr>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Latency: ${escapeHtml(report.scenario)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#222;max-width:900px}
table{border-collapse:collapse;margin:12px 0}td,th{border-bottom:1px solid #ddd;padding:4px 10px;text-align:right}
td:first-child,th:first-child{text-align:left}.chart-title{font-weight:600;font-size:14px}
.label{font-size:13px}.value{font-size:11px;fill:#444}.deadline{stroke:#222;stroke-dasharray:4 3}
pre{background:#f6f6f6;padding:8px;overflow:auto}
</style></head>
<body data-ready="0">
<h1>Latency: ${escapeHtml(report.scenario)} on ${escapeHtml(report.harness)}</h1>
<p>${report.episodes} episodes, ${report.turns} turns, ${report.modelCalls} model calls at concurrency ${report.concurrency} in ${(report.wallMs / 1000).toFixed(1)} s.
${(100 * report.underDeadline).toFixed(1)}% of turns within the ${report.deadlineMs / 1000} s deadline; ${report.turnsPerEpisode.mean} turns per episode.</p>
${percentileChart(report)}
<table><thead><tr><th>ms</th><th>count</th><th>mean</th><th>P50</th><th>P95</th><th>P99</th><th>max</th></tr></thead><tbody>${table}</tbody></table>
${report.errors.episodes > 0 ? `<p>${report.errors.episodes} episodes failed: ${escapeHtml(report.errors.messages.join('; '))}</p>` : ''}
${report.server ? `<h2>Server metrics (/metrics)</h2><pre>${escapeHtml(JSON.stringify(report.server, null, 2))}</pre>` : '<p>The server did not answer /metrics.</p>'}
<script>try{document.body.dataset.ready="1"}catch(error){document.body.dataset.error=String(error)}</script>
</body></html>
`;
}
