// The review page: one self-contained HTML file (inline CSS; no script, font, image or link that loads
// anything) that shows, for each sampled row, every text its variant changed beside the base text with the
// changed words marked, the row's operators that write that kind of text, the renames as a table, and what
// changed that is not text (section and hook order, the prompt's heading and list styles, the tools'
// argument schemas: `argumentChanges`). Every
// text of a row is escaped: rows are input, and a skill body holding HTML must show as text, never run.
// The page is a function of its input only (no clock, no path of the machine), so the same rows and seed give
// the same bytes.
import { type ChangedPart, changedParts, partDimensions, relabelRenames } from '../augment/changed-parts.js';
import type { OperatorRecord } from '../augment/operator.js';
import { escapeHtml } from '../harness/escape-html.js';
import type { Harness } from '../harness/schema.js';
import type { Relabel } from '../trajectory/relabel.js';
import { argumentChanges } from './argument-changes.js';
import { type DiffRun, wordDiff } from './word-diff.js';

/** What the page reads of a row: its ids, its variant and its provenance. */
export interface ReviewRow {
  id: string;
  variantId: string;
  harness: Harness;
  relabel: Relabel;
  provenance: { baseHash: string; variantSeed: string; ops: readonly OperatorRecord[] };
}

/** The page's input: the base, the sampled rows with their positions, and how they were drawn. */
export interface ReviewPageInput {
  base: Harness;
  rows: ReadonlyArray<{ row: ReviewRow; position: number }>;
  /** Shown in the heading: the rows file's name, the rows read, the sample size and seed. */
  source: { rows: string; read: number; sample: number; seed: string };
}

const css = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1200px;padding:1rem 1.5rem;color:#1d1d1f;background:#fff}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin:2rem 0 .3rem;border-top:2px solid #ccc;padding-top:1rem}
h3{font-size:.95rem;margin:1rem 0 .3rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
table{border-collapse:collapse;margin:.3rem 0}td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:.6rem}
.text{white-space:pre-wrap;word-break:break-word;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px;background:#f7f7f8;border:1px solid #e3e3e6;padding:.5rem;margin:0}
del{background:#ffd7d5;color:#82071e;text-decoration:line-through}ins{background:#ccffd8;color:#055d20;text-decoration:none}
.ops{color:#555;font-size:.9em}.muted{color:#777}.tag{display:inline-block;background:#eef;border-radius:3px;padding:0 .3rem;margin-right:.2rem}
details{margin:.4rem 0}summary{cursor:pointer}
`;

function diffHtml(runs: readonly DiffRun[], side: 'base' | 'variant'): string {
  return runs
    .map((run) => {
      if (run.type === 'same') return escapeHtml(run.text);
      if (run.type === 'removed') return side === 'base' ? `<del>${escapeHtml(run.text)}</del>` : '';
      return side === 'variant' ? `<ins>${escapeHtml(run.text)}</ins>` : '';
    })
    .join('');
}

function operatorsHtml(part: ChangedPart, ops: readonly OperatorRecord[]): string {
  const dimensions = partDimensions(part);
  const writers = ops.filter((op) => dimensions.includes(op.dimension));
  if (writers.length === 0)
    return '<span class="muted">no operator of this row writes this kind of text</span>';
  return writers
    .map((op) => `<span class="tag"><code>${escapeHtml(op.name)}@${op.version}</code></span>`)
    .join('');
}

function partHtml(part: ChangedPart, ops: readonly OperatorRecord[]): string {
  const label = escapeHtml(
    part.base && part.variant
      ? part.base.label === part.variant.label
        ? part.base.label
        : `${part.base.label} → ${part.variant.label}`
      : ((part.base ?? part.variant)?.label ?? ''),
  );
  const status = !part.base
    ? ' (added)'
    : !part.variant
      ? ' (removed)'
      : part.renameOnly
        ? ' (renames only)'
        : '';
  const runs = wordDiff(part.base?.text ?? '', part.variant?.text ?? '');
  const body = `<p class="ops">operators: ${operatorsHtml(part, ops)}</p>
<div class="pair"><div><div class="muted">base</div><pre class="text base">${diffHtml(runs, 'base')}</pre></div>
<div><div class="muted">variant</div><pre class="text variant">${diffHtml(runs, 'variant')}</pre></div></div>`;
  const kind = escapeHtml(part.kind);
  // Rename-only parts are folded: the renames table says what changed in them.
  return part.renameOnly
    ? `<details class="part" data-kind="${kind}" data-part="${label}" data-rename-only="1"><summary>${label}${status}</summary>${body}</details>`
    : `<section class="part" data-kind="${kind}" data-part="${label}"><h3>${label}${status}</h3>${body}</section>`;
}

function renamesHtml(relabel: Relabel): string {
  const renames = relabelRenames(relabel);
  const rows = [
    ...renames.skills.map(({ from, to }) => ['skill', from, to]),
    ...renames.merges.map(({ from, to }) => ['skills merged', from.join(' + '), to]),
    ...renames.tools.map(({ from, to }) => ['tool', from, to]),
    ...renames.parameters.map(({ tool, from, to }) => ['parameter', `${tool}.${from}`, to]),
  ];
  if (rows.length === 0) return '<p class="muted">No identifier renamed.</p>';
  return `<table class="renames"><thead><tr><th>kind</th><th>base</th><th>variant</th></tr></thead><tbody>${rows
    .map(
      (cells) =>
        `<tr>${cells.map((cell) => `<td><code>${escapeHtml(cell as string)}</code></td>`).join('')}</tr>`,
    )
    .join('')}</tbody></table>`;
}

/** What a variant changed that is not text: the order of sections and hooks, the prompt's styles. */
function structureHtml(base: Harness, variant: Harness): string {
  const rows: Array<[string, string, string]> = [];
  const compare = (what: string, before: string, after: string) => {
    if (before !== after) rows.push([what, before, after]);
  };
  compare('prompt heading style', base.prompt.headingStyle, variant.prompt.headingStyle);
  compare('prompt list style', base.prompt.listStyle, variant.prompt.listStyle);
  compare(
    'prompt section order',
    base.prompt.sections.map((section) => section.id).join(', '),
    variant.prompt.sections.map((section) => section.id).join(', '),
  );
  compare(
    'hook order',
    base.hooks.items.map((hook) => hook.id).join(', '),
    variant.hooks.items.map((hook) => hook.id).join(', '),
  );
  if (rows.length === 0) return '';
  return `<h3>Structure</h3><table class="structure"><thead><tr><th></th><th>base</th><th>variant</th></tr></thead><tbody>${rows
    .map(
      ([what, before, after]) =>
        `<tr><th>${escapeHtml(what)}</th><td><code>${escapeHtml(before)}</code></td><td><code>${escapeHtml(after)}</code></td></tr>`,
    )
    .join('')}</tbody></table>`;
}

/** What the variant changed in argument schemas beyond renames and descriptions, one item per kind of change. */
function argumentsHtml(base: Harness, row: ReviewRow): string {
  const lines = argumentChanges(base, row.harness, row.relabel);
  if (lines.length === 0) return '';
  // Names are written in backticks: shown as code, after escaping (a backtick is no HTML).
  const item = (line: string) => escapeHtml(line).replace(/`([^`]*)`/g, '<code>$1</code>');
  return `<h3>Argument schemas</h3><ul class="arguments">${lines.map((line) => `<li>${item(line)}</li>`).join('')}</ul>`;
}

function rowHtml(base: Harness, row: ReviewRow, position: number): string {
  const parts = changedParts(base, row.harness, row.relabel);
  const ops = row.provenance.ops;
  const chain =
    ops.length === 0
      ? '<span class="muted">none: the base harness</span>'
      : ops
          .map(
            (op) =>
              `<code>${escapeHtml(op.name)}@${op.version}</code> <span class="muted">severity ${op.severity}</span>`,
          )
          .join(' → ');
  const meaningful = parts.filter((part) => !part.renameOnly).length;
  return `<article class="row" id="row-${position}">
<h2>${escapeHtml(row.id)} <span class="muted">${escapeHtml(row.variantId)} · row ${position}</span></h2>
<p class="ops">seed <code>${escapeHtml(row.provenance.variantSeed)}</code> · operators: ${chain}</p>
<h3>Renames</h3>${renamesHtml(row.relabel)}
${structureHtml(base, row.harness)}
${argumentsHtml(base, row)}
<h3>Changed texts: ${meaningful} beyond names, ${parts.length - meaningful} by renames only</h3>
${parts.length === 0 ? '<p class="muted">No text changed.</p>' : parts.map((part) => partHtml(part, ops)).join('\n')}
</article>`;
}

/**
 * Renders the review page of sampled rows against their base harness: a complete HTML document.
 *
 * @example
 * const html = renderReviewPage({ base, rows: sample.map(({ item, position }) => ({ row: item, position })), source });
 */
export function renderReviewPage(input: ReviewPageInput): string {
  const { source } = input;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Review of ${escapeHtml(source.rows)}</title><style>${css}</style></head>
<body>
<h1>Review of <code>${escapeHtml(source.rows)}</code></h1>
<p>${input.rows.length} of ${source.read} rows, drawn with seed <code>${escapeHtml(source.seed)}</code> (sample ${source.sample}), against base <code>${escapeHtml(input.base.id)}</code>. Words only the base has are <del>struck</del>; words only the variant has are <ins>marked</ins>.</p>
${input.rows.map(({ row, position }) => rowHtml(input.base, row, position)).join('\n')}
</body></html>
`;
}
