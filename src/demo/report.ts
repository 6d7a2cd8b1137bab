// The demo's reports: a Markdown table for the terminal and one self-contained HTML file (inline CSS and
// SVG charts, no script, no network). Both are functions of the summary only, so the same seed gives the
// same bytes.

import { dimensions } from '../augment/operator.js';
import type { BootstrapEstimate } from '../bench/bootstrap.js';
import { escapeHtml } from '../harness/escape-html.js';
import type { PairedReport } from './paired.js';
import { type DemoCriterion, type DemoLearnerSummary, type DemoSummary, nameDimensions } from './summary.js';

const pct = (value: number | null | undefined) =>
  value === null || value === undefined || Number.isNaN(value) ? '-' : (100 * value).toFixed(1);

/** `mean [low, high]` in percent. */
export function estimateText(estimate: BootstrapEstimate | undefined): string {
  if (!estimate || estimate.mean === null) return '-';
  return `${pct(estimate.mean)} [${pct(estimate.low)}, ${pct(estimate.high)}]`;
}

function groupOf(learner: DemoLearnerSummary, group: string, criterion: DemoCriterion = 'names') {
  return learner.groups[group]?.criteria[criterion];
}

/** Signed points: `+1.9 [0.3, 3.6]`. */
function pointsText(estimate: BootstrapEstimate | undefined): string {
  if (!estimate || estimate.mean === null) return '-';
  const signed = (value: number | null) =>
    value === null ? '-' : `${value > 0 ? '+' : ''}${(100 * value).toFixed(1)}`;
  return `${signed(estimate.mean)} [${pct(estimate.low)}, ${pct(estimate.high)}]`;
}

function pairedLabel(group: string): string {
  if (group === 'names') return `dimensions that change names (${nameDimensions.join(', ')})`;
  if (group === 'renamed') return 'renamed rows (the answer key names something differently)';
  if (group === 'renamed-unseen') return 'renamed rows, no new name in the training data';
  if (group === 'renamed-seen') return 'renamed rows, a new name in the training data (counted apart)';
  return group.replace(/^dimension\//, 'dimension ');
}

export const pairedHeader = [
  'variant rows',
  'trajectories',
  'fixed gap',
  'hsa gap',
  'fixed gap − hsa gap',
  'hsa − fixed: variants',
  'hsa − fixed: original',
  'flips: fixed',
  'flips: hsa',
  'ceiling (memoriser gap)',
  'fixed gap / ceiling',
  'hsa gap / ceiling',
];

/** One table row per group of the paired comparison, headline groups first, then the dimensions. */
export function pairedRows(paired: Record<string, PairedReport>): string[][] {
  const order = (group: string) => (group.startsWith('dimension/') ? 1 : 0);
  return Object.keys(paired)
    .sort((x, y) => order(x) - order(y))
    .map((group) => {
      const report = paired[group] as PairedReport;
      return [
        pairedLabel(group),
        String(report.rows),
        String(report.units),
        estimateText(report.gap.a),
        estimateText(report.gap.b),
        pointsText(report.gapDifference),
        pointsText(report.variantDifference),
        pointsText(report.originalDifference),
        estimateText(report.flipRate.a),
        estimateText(report.flipRate.b),
        estimateText(report.gap.ceiling),
        estimateText(report.ceilingShare.a),
        estimateText(report.ceilingShare.b),
      ];
    });
}

/** What the paired table means, for both reports. */
export const pairedExplanation =
  'Paired over held-out trajectories (the same bench rows answered by both learners, one bootstrap draw of trajectories for both, 95% percentile intervals): gap = original − variants on `names`; "flips" = variant rows that fail where the item\'s original passes, as a share of the variant rows whose original passes; the ceiling is the gap of a memoriser that writes the original answer (base names) on every row, the most a learner that ignores the harness could lose.';

function headlineRows(summary: DemoSummary): string[][] {
  const main = summary.learners.filter((learner) => learner.dimension === undefined);
  return [...main, summary.baseline, summary.memoriser].map((learner) => [
    learner.name,
    pct(learner.decisions?.all),
    estimateText(groupOf(learner, 'all')?.original),
    estimateText(groupOf(learner, 'all')?.variants),
    estimateText(groupOf(learner, 'all')?.gap),
    estimateText(groupOf(learner, 'names')?.gap),
    estimateText(groupOf(learner, 'renamed')?.variants),
    estimateText(groupOf(learner, 'renamed')?.gap),
    estimateText(groupOf(learner, 'held-out')?.gap),
    estimateText(learner.passK.estimate),
  ]);
}

const headlineHeader = [
  'learner',
  'decisions right (original)',
  'original',
  'variants',
  'gap',
  'name dimensions: gap',
  'renamed: variants',
  'renamed: gap',
  'held-out ops: gap',
  'pass^k',
];

function criterionRows(summary: DemoSummary): string[][] {
  const main = summary.learners.filter((learner) => learner.dimension === undefined);
  const criteria: DemoCriterion[] = ['toolSelection', 'skillSelection', 'argumentAccuracy', 'overall'];
  return main.flatMap((learner) =>
    criteria.map((criterion) => [
      learner.name,
      criterion,
      estimateText(groupOf(learner, 'all', criterion)?.original),
      estimateText(groupOf(learner, 'all', criterion)?.variants),
      estimateText(groupOf(learner, 'all', criterion)?.gap),
    ]),
  );
}

function dimensionRows(summary: DemoSummary): string[][] {
  const main = summary.learners.filter((learner) => learner.dimension === undefined);
  return dimensions.map((dimension) => [
    dimension,
    String(main[0]?.groups[`dimension/${dimension}`]?.rows ?? 0),
    ...main.map((learner) => estimateText(groupOf(learner, `dimension/${dimension}`)?.gap)),
  ]);
}

function ablationRows(summary: DemoSummary): string[][] {
  return summary.learners.map((learner) => [
    learner.dimension ? `hsa on ${learner.dimension} only` : learner.name,
    ...dimensions.map((dimension) => pct(groupOf(learner, `dimension/${dimension}`)?.gap.mean)),
    pct(groupOf(learner, 'all')?.gap.mean),
  ]);
}

function routeRows(summary: DemoSummary): string[][] {
  return summary.learners.map((learner) => [
    learner.name,
    pct(learner.routes?.original.unoffered),
    pct(learner.routes?.variants.unoffered),
    pct(learner.routes?.renamed.unoffered),
    pct(learner.routes?.original.generatorWeight),
    pct(learner.routes?.renamed.generatorWeight),
  ]);
}

function markdownTable(header: string[], rows: string[][]): string[] {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map((_, index) => (index === 0 ? '---' : '---:')).join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ];
}

function settingsLine(summary: DemoSummary): string {
  const { sizes } = summary;
  const examples = summary.learners[0]?.examples ?? 0;
  const { vocabulary } = summary;
  return `Seed \`${summary.seed}\`. Data: ${summary.data.trajectories} gold trajectories, ${summary.data.heldOut} of them held out for the bench (split by trajectory; each is one unit of the bootstrap). Each learner: ${examples} TRL rows from ${sizes.trainTasks} tasks × (original + ${sizes.variants} variants), ${sizes.steps} Adam steps, the same features and settings. Bench: ${summary.bench.items} held-out items, ${summary.bench.rows} rows (${summary.bench.variantRows} variants, one dimension each, ${sizes.benchVariants} per dimension, held-out seeds; ${summary.bench.nameRows} of the dimensions that change names; ${summary.bench.renamedRows} rename a name of the answer key, ${summary.bench.renamedSeenRows} of them with a new name that occurs in the training data; ${summary.bench.heldOutRows} use an operator held out of training; ${summary.bench.rejectedVariants} variants rejected, in \`bench/rejects.jsonl\`). Disjoint rename vocabularies: ${vocabulary.operators.map((id) => `\`${id}\``).join(', ')} draw new names from part ${vocabulary.training.part} of ${vocabulary.training.parts} of a hash partition of names in training, part ${vocabulary.bench.part} in the bench.`;
}

/**
 * The demo's Markdown report.
 *
 * @example
 * process.stdout.write(renderDemoMarkdown(result.summary));
 */
export function renderDemoMarkdown(summary: DemoSummary): string {
  const lines = [
    '# hsa demo: fixed-harness vs harness-augmented training',
    '',
    settingsLine(summary),
    '',
    '## Verdict',
    '',
    ...summary.verdict.text.flatMap((sentence) => [sentence, '']),
    'Criterion `names`: the tool calls and the skill loads of the answer key are made, and no call names a tool the harness does not offer. Percent with 95% bootstrap intervals over held-out trajectories (the items of one conversation are drawn together); gap = original − variants. "Decisions right": teacher-forced, every name (action, argument key, enum value) of the held-out items\' gold trajectories under the original harness; for `uniform`, the expectation of a uniform pick among the offered names.',
    '',
    '## fixed vs hsa, paired',
    '',
    pairedExplanation,
    '',
    ...markdownTable(['group', ...pairedHeader], pairedRows(summary.paired)),
    '',
    '## Every learner (`names`)',
    '',
    ...markdownTable(headlineHeader, headlineRows(summary)),
    '',
    '## Per criterion (all variant rows)',
    '',
    ...markdownTable(['learner', 'criterion', 'original', 'variants', 'gap'], criterionRows(summary)),
    '',
    '## Gap per dimension (`names`)',
    '',
    ...markdownTable(
      [
        'dimension',
        'rows',
        ...summary.learners.filter((learner) => !learner.dimension).map((learner) => learner.name),
      ],
      dimensionRows(summary),
    ),
    '',
    `Held-out operators (never in training data, the \`test\` split of their dimension): ${dimensions.map((dimension) => `\`${summary.heldOut[dimension]}\``).join(', ')}.`,
    '',
  ];
  if (summary.learners.some((learner) => learner.dimension)) {
    lines.push(
      '## Ablation: gap (`names`, points) by the dimension trained on (rows) and the dimension changed (columns)',
      '',
      ...markdownTable(['trained on', ...dimensions, 'all'], ablationRows(summary)),
      '',
    );
  }
  lines.push(
    '## How the names came about (tool names and enum values written at prediction time)',
    '',
    ...markdownTable(
      [
        'learner',
        'not offered: original',
        'not offered: variants',
        'not offered: renamed',
        'generator weight: original',
        'generator weight: renamed',
      ],
      routeRows(summary),
    ),
    '',
    '## Training',
    '',
    ...markdownTable(
      [
        'learner',
        'rows',
        'decisions',
        'vocabulary (action/key/value)',
        'loss before',
        'loss after',
        'held-out decisions right (action/key/value)',
      ],
      summary.learners.map((learner) => [
        learner.name,
        String(learner.training?.rows ?? 0),
        String(learner.training?.decisions ?? 0),
        `${learner.training?.vocabulary.action}/${learner.training?.vocabulary.key}/${learner.training?.vocabulary.value}`,
        (learner.training?.initialLoss ?? 0).toFixed(3),
        (learner.training?.finalLoss ?? 0).toFixed(3),
        `${pct(learner.decisions?.bySlot.action.accuracy)}/${pct(learner.decisions?.bySlot.key.accuracy)}/${pct(learner.decisions?.bySlot.value.accuracy)}`,
      ]),
    ),
    '',
  );
  return `${lines.join('\n')}\n`;
}

const round = (value: number) => Number(value.toFixed(2));

/** Grouped horizontal bars with interval whiskers: one block per label, one bar per series. */
function barChart(
  title: string,
  blocks: Array<{ label: string; bars: Array<{ series: string; estimate: BootstrapEstimate | undefined }> }>,
  options: { min: number; max: number },
): string {
  const label = 190;
  const plot = 420;
  const barHeight = 14;
  const series = [...new Set(blocks.flatMap((block) => block.bars.map((bar) => bar.series)))];
  const colors = ['#4c78a8', '#f58518', '#54a24b', '#b279a2', '#9d755d', '#e45756', '#72b7b2', '#bab0ac'];
  const color = (name: string) => colors[series.indexOf(name) % colors.length] as string;
  const blockHeight = series.length * (barHeight + 2) + 10;
  const top = 44;
  const height = top + blocks.length * blockHeight + 24;
  const x = (value: number) => round(label + ((value - options.min) / (options.max - options.min)) * plot);
  const parts = [
    `<text x="0" y="16" class="title">${escapeHtml(title)}</text>`,
    ...series.map(
      (name, index) =>
        `<rect x="${label + index * 120}" y="24" width="10" height="10" fill="${color(name)}"/><text x="${label + index * 120 + 14}" y="33" class="legend">${escapeHtml(name)}</text>`,
    ),
    `<line x1="${x(0)}" y1="${top - 4}" x2="${x(0)}" y2="${height - 20}" class="axis"/>`,
    `<text x="${x(options.min)}" y="${height - 6}" class="tick">${pct(options.min)}</text>`,
    `<text x="${x(options.max) - 24}" y="${height - 6}" class="tick">${pct(options.max)}</text>`,
  ];
  blocks.forEach((block, blockIndex) => {
    const y0 = top + blockIndex * blockHeight;
    parts.push(`<text x="0" y="${y0 + blockHeight / 2}" class="label">${escapeHtml(block.label)}</text>`);
    for (const bar of block.bars) {
      const y = y0 + series.indexOf(bar.series) * (barHeight + 2);
      const mean = bar.estimate?.mean;
      if (mean === null || mean === undefined) continue;
      const start = Math.min(x(0), x(mean));
      parts.push(
        `<rect x="${start}" y="${y}" width="${round(Math.abs(x(mean) - x(0)))}" height="${barHeight}" fill="${color(bar.series)}"><title>${escapeHtml(`${bar.series}: ${estimateText(bar.estimate)}`)}</title></rect>`,
      );
      if (bar.estimate?.low !== null && bar.estimate?.low !== undefined && bar.estimate.high !== null)
        parts.push(
          `<line x1="${x(bar.estimate.low)}" y1="${y + barHeight / 2}" x2="${x(bar.estimate.high as number)}" y2="${y + barHeight / 2}" class="whisker"/>`,
        );
      parts.push(`<text x="${label + plot + 6}" y="${y + barHeight - 3}" class="value">${pct(mean)}</text>`);
    }
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${label + plot + 60}" height="${height}" role="img">${parts.join('')}</svg>`;
}

/** Loss curves of the learners. */
function lossChart(summary: DemoSummary): string {
  const width = 560;
  const height = 220;
  const curves = summary.learners.map((learner) => ({
    name: learner.name,
    values: learner.training?.curve ?? [],
  }));
  const max = Math.max(0.1, ...curves.flatMap((curve) => curve.values));
  const colors = ['#4c78a8', '#f58518', '#54a24b', '#b279a2', '#9d755d', '#e45756', '#72b7b2'];
  const parts = [
    `<text x="0" y="16" class="title">Training loss (mean −log P per tenth of the steps)</text>`,
  ];
  curves.forEach((curve, index) => {
    const points = curve.values
      .map((value, position) => {
        const x = 40 + (position / Math.max(1, curve.values.length - 1)) * (width - 160);
        const y = 30 + (1 - value / max) * (height - 60);
        return `${round(x)},${round(y)}`;
      })
      .join(' ');
    const color = colors[index % colors.length] as string;
    parts.push(`<polyline points="${points}" fill="none" stroke="${color}" stroke-width="2"/>`);
    parts.push(
      `<text x="${width - 110}" y="${40 + index * 14}" class="legend" fill="${color}">${escapeHtml(curve.name)}</text>`,
    );
  });
  parts.push(
    `<text x="0" y="40" class="tick">${max.toFixed(2)}</text><text x="0" y="${height - 30}" class="tick">0</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img">${parts.join('')}</svg>`;
}

function htmlTable(
  header: string[],
  rows: string[][],
  shade?: (value: string, column: number) => string,
): string {
  return `<table><thead><tr>${header.map((cell) => `<th>${escapeHtml(cell)}</th>`).join('')}</tr></thead><tbody>${rows
    .map(
      (row) =>
        `<tr>${row.map((cell, column) => `<td${shade ? shade(cell, column) : ''}>${escapeHtml(cell)}</td>`).join('')}</tr>`,
    )
    .join('')}</tbody></table>`;
}

/**
 * The demo's HTML report: tables and charts, self-contained.
 *
 * @example
 * await writeFile('out/demo/report.html', renderDemoHtml(result.summary));
 */
export function renderDemoHtml(summary: DemoSummary): string {
  const main = summary.learners.filter((learner) => !learner.dimension);
  const all = [...main, summary.baseline];
  const scoreChart = barChart(
    'names: original vs variants (percent, 95% CI)',
    all.flatMap((learner) => [
      {
        label: learner.name,
        bars: [
          { series: 'original', estimate: groupOf(learner, 'all')?.original },
          { series: 'variants', estimate: groupOf(learner, 'all')?.variants },
          { series: 'renamed rows', estimate: groupOf(learner, 'renamed')?.variants },
        ],
      },
    ]),
    { min: 0, max: 1 },
  );
  const gaps = [
    { label: 'all variants', group: 'all' },
    { label: 'renamed rows', group: 'renamed' },
    { label: 'held-out operators', group: 'held-out' },
    ...dimensions.map((dimension) => ({ label: dimension, group: `dimension/${dimension}` })),
  ];
  const values = main.flatMap((learner) =>
    gaps.flatMap(({ group }) => {
      const gap = groupOf(learner, group)?.gap;
      return [gap?.low ?? 0, gap?.high ?? 0];
    }),
  );
  const gapChart = barChart(
    'names: gap original − variants (points, 95% CI)',
    gaps.map(({ label, group }) => ({
      label,
      bars: main.map((learner) => ({ series: learner.name, estimate: groupOf(learner, group)?.gap })),
    })),
    { min: Math.min(-0.1, ...values), max: Math.max(0.1, ...values) },
  );
  const ablation = summary.learners.some((learner) => learner.dimension)
    ? `<h2>Ablation: gap (names, points) by dimension trained on × dimension changed</h2>${htmlTable(
        ['trained on', ...dimensions, 'all'],
        ablationRows(summary),
        (value, column) => {
          const number = Number(value);
          if (column === 0 || Number.isNaN(number)) return '';
          const strength = Math.min(1, Math.abs(number) / 50);
          const rgb = number >= 0 ? `228,87,86` : `84,162,75`;
          return ` style="background: rgba(${rgb},${strength.toFixed(2)})"`;
        },
      )}`
    : '';
  const css =
    'body{font-family:system-ui,sans-serif;margin:2rem;max-width:70rem;color:#222}table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.3rem .6rem;text-align:right}td:first-child,th:first-child{text-align:left}svg{display:block;margin:1rem 0}.title{font-weight:600;font-size:14px}.label,.legend,.value,.tick{font-size:12px}.axis{stroke:#888}.whisker{stroke:#222;stroke-width:1.5}';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>hsa demo</title><style>${css}</style></head>
<body>
<h1>hsa demo: fixed-harness vs harness-augmented training</h1>
<p>${escapeHtml(settingsLine(summary))}</p>
<h2>Verdict</h2>
${summary.verdict.text.map((sentence) => `<p>${escapeHtml(sentence)}</p>`).join('\n')}
<p>Criterion <code>names</code>: the tool calls and the skill loads of the answer key are made, and no call names a tool the harness does not offer. Gap = original − variants; intervals are 95% percentile bootstrap over held-out trajectories (the items of one conversation are drawn together). “Decisions right”: teacher-forced accuracy of every name written in the held-out items' gold trajectories under the original harness (for <code>uniform</code>: the expectation of a uniform pick among the offered names).</p>
<h2>fixed vs hsa, paired</h2>
<p>${escapeHtml(pairedExplanation)}</p>
${htmlTable(['group', ...pairedHeader], pairedRows(summary.paired))}
<h2>Every learner</h2>
${htmlTable(headlineHeader, headlineRows(summary))}
${scoreChart}
${gapChart}
<h2>Per criterion</h2>
${htmlTable(['learner', 'criterion', 'original', 'variants', 'gap'], criterionRows(summary))}
<h2>Gap per dimension (names)</h2>
${htmlTable(['dimension', 'rows', ...main.map((learner) => learner.name)], dimensionRows(summary))}
<p>Held-out operators: ${dimensions.map((dimension) => `<code>${escapeHtml(summary.heldOut[dimension])}</code>`).join(', ')}.</p>
${ablation}
<h2>How the names came about</h2>
<p>Tool names and enum values written at prediction time: the share the prompt did not offer (an old name under a changed harness), and the mean weight of the generator route (the gate).</p>
${htmlTable(['learner', 'not offered: original', 'not offered: variants', 'not offered: renamed', 'generator weight: original', 'generator weight: renamed'], routeRows(summary))}
<h2>Training</h2>
${lossChart(summary)}
</body></html>
`;
}
