// `hsa review`: the page in headless Chromium (the changed words marked, a skill body's HTML shown as text,
// nothing run), byte-identical pages for the same rows and seed, and clear refusals of bad input.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOptionalParameters } from '../../perturbations/tools/add-optional-parameters.js';
import { nestArguments } from '../../perturbations/tools/nest-arguments.js';
import { applyOperator } from '../../src/augment/operator.js';
import { renameSymbols } from '../../src/augment/rename-symbols.js';
import { hashHarness } from '../../src/harness/hash.js';
import type { Harness } from '../../src/harness/schema.js';
import { composeRelabels } from '../../src/trajectory/relabel.js';
import { dumpDom } from '../support/chromium.js';
import { hsa } from '../support/run-hsa.js';
import { travelHarness, travelHarnessInput } from '../support/travel-harness.js';

let folder: string;
let harnessFile: string;
let rowsFile: string;
const hostile = '<script>document.title="pwned"</script><img src=x onerror="document.title=\'pwned\'">';

function withSkillBody(harness: Harness, id: string, edit: (body: string) => string): Harness {
  return {
    ...harness,
    skills: {
      ...harness.skills,
      items: harness.skills.items.map((skill) =>
        skill.id === id ? { ...skill, body: edit(skill.body) } : skill,
      ),
    },
  };
}

function row(index: number, harness: Harness, relabel: unknown, base: Harness) {
  return {
    id: `ex-${index}/0`,
    exampleId: `ex-${index}`,
    variantIndex: 0,
    variantId: `v_${index}`,
    harness,
    trajectory: { id: `ex-${index}`, messages: [] },
    relabel,
    provenance: {
      seed: '0',
      variantSeed: `0/ex-${index}/0`,
      baseHash: hashHarness(base).harness,
      ops: [
        {
          name: 'skill-content/paraphrase-lexicon',
          version: 1,
          dimension: 'skill-content',
          severity: 0.5,
          params: {},
        },
        { name: 'skill-ids/rename', version: 1, dimension: 'skill-ids', severity: 0.5, params: {} },
      ],
      skipped: [],
      planned: ['skill-content', 'skill-ids'],
      changed: ['skill-content', 'skill-ids'],
    },
    certificate: { certified: true },
  };
}

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'hsa-review-'));
  harnessFile = join(folder, 'base.json');
  writeFileSync(harnessFile, JSON.stringify(travelHarnessInput()));
  const base = travelHarness();
  const renamed = renameSymbols(base, { skills: { baggage: 'bag_rules' } });
  // Row 0: a reworded body under a renamed skill; row 1: a body that carries HTML; rows 2-5: renames only
  // (row 2 with another heading style too).
  const reworded = withSkillBody(renamed.harness, 'bag_rules', (body) =>
    body.replace('State weights in kilograms.', 'Give every weight in kilograms.'),
  );
  const withHtml = withSkillBody(base, 'rebooking', (body) => `${body}\n${hostile}`);
  const lines = [
    row(0, reworded, renamed.relabel, base),
    row(1, withHtml, { steps: [] }, base),
    row(
      2,
      { ...renamed.harness, prompt: { ...renamed.harness.prompt, headingStyle: 'xml' } },
      renamed.relabel,
      base,
    ),
    ...[3, 4, 5].map((index) => row(index, renamed.harness, renamed.relabel, base)),
  ];
  rowsFile = join(folder, 'rows.jsonl');
  writeFileSync(rowsFile, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The DOM of one part's section: from its opening tag to the next part. */
function partOf(dom: string, label: string): string {
  const start = dom.indexOf(`data-part="${label}"`);
  expect(start, `no part "${label}" in the page`).toBeGreaterThan(-1);
  const next = dom.indexOf('class="part"', start);
  return dom.slice(start, next === -1 ? undefined : next);
}

const marked = (html: string, tag: 'ins' | 'del') =>
  [...html.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, 'g'))].map((match) => match[1]);

describe('hsa review', () => {
  it('writes a page that Chromium shows with the changed words marked and HTML of rows as text', async () => {
    const page = join(folder, 'review.html');
    const run = await hsa([
      'review',
      rowsFile,
      '--harness',
      harnessFile,
      '-o',
      page,
      '--sample',
      '10',
      '--seed',
      '3',
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/review of 6 of 6 rows \(seed 3\)/);
    const html = readFileSync(page, 'utf8');
    // Offline: nothing that loads or runs anything.
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(|https?:\/\//i);

    const dom = dumpDom(page);
    // Nothing of the rows ran: no script element, the title is the page's own.
    expect(dom).not.toMatch(/<script|<img/i);
    expect(dom).toMatch(/<title>Review of rows\.jsonl<\/title>/);
    // The hostile body shows as its text, the added words marked as added.
    const rebooking = partOf(dom, 'skill rebooking body');
    expect(rebooking).toContain('&lt;script&gt;document.title="pwned"&lt;/script&gt;');
    expect(marked(rebooking, 'ins').join('')).toBe(
      '\n&lt;script&gt;document.title="pwned"&lt;/script&gt;&lt;img src=x onerror="document.title=\'pwned\'"&gt;',
    );
    expect(marked(rebooking, 'del')).toEqual([]);
    // The reworded body, paired with its base under the renamed id: exactly the changed words are marked.
    const baggage = partOf(dom, 'skill baggage body → skill bag_rules body');
    expect(marked(baggage, 'del')).toEqual(['State weights']);
    expect(marked(baggage, 'ins')).toEqual(['Give every weight']);
    expect(baggage).toContain('skill-content/paraphrase-lexicon@1');
    // What changed that is not text.
    expect(dom).toContain(
      '<tr><th>prompt heading style</th><td><code>markdown</code></td><td><code>xml</code></td></tr>',
    );
    // The renames table.
    expect(dom).toMatch(
      /<td><code>skill<\/code><\/td><td><code>baggage<\/code><\/td><td><code>bag_rules<\/code><\/td>/,
    );
  });

  // A user audit on BFCL: a garbled parameter description was not shown, rows of nest-arguments read "No
  // text changed", and the parameters add-optional-parameters added were not shown.
  it('shows parameter descriptions and what changed in argument schemas', async () => {
    const base = travelHarness();
    const nested = await applyOperator(nestArguments, base, { rng: 'n', severity: 1 });
    if ('skip' in nested) throw new Error(nested.skip);
    const added = await applyOperator(addOptionalParameters, nested.harness, { rng: 'a', severity: 1 });
    if ('skip' in added) throw new Error(added.skip);
    const variant = structuredClone(added.harness);
    const under = (
      nested.relabel.steps.find((step) => step.type === 'nest_arguments' && step.tool === 'find_flights') as {
        under: string;
      }
    ).under;
    const flights = variant.tools.items.find((tool) => tool.name === 'find_flights')?.parameters as {
      properties: Record<string, { properties: { origin: { description: string } } }>;
    };
    (flights.properties[under] as (typeof flights.properties)[string]).properties.origin.description =
      'IATA narrow';
    const line = row(7, variant, composeRelabels(nested.relabel, added.relabel), base);
    line.provenance.ops = [
      { name: 'tools/nest-arguments', version: 3, dimension: 'tools', severity: 1, params: {} },
      { name: 'tools/add-optional-parameters', version: 1, dimension: 'tools', severity: 1, params: {} },
    ];
    const rows = join(folder, 'arguments.jsonl');
    writeFileSync(rows, `${JSON.stringify(line)}\n`);
    const page = join(folder, 'arguments.html');
    const run = await hsa(['review', rows, '--harness', harnessFile, '-o', page]);
    expect(run.status, run.stderr).toBe(0);
    const html = readFileSync(page, 'utf8');
    const origin = partOf(
      html,
      `tool find_flights parameter origin description → tool find_flights parameter ${under}.origin description`,
    );
    expect(html).toContain(
      `data-kind="parameter_description" data-part="tool find_flights parameter origin description`,
    );
    expect(marked(origin, 'del')).toEqual(['code']);
    expect(marked(origin, 'ins')).toEqual(['narrow']);
    expect(origin).toContain('tools/nest-arguments@3');
    expect(html).not.toContain('No text changed');
    // The parameters added are added parts, and the schema changes are named.
    expect(html).toMatch(/data-part="tool \w+ parameter \w+ description"[^>]*><h3>[^<]+ \(added\)<\/h3>/);
    const list = html.slice(html.indexOf('<h3>Argument schemas</h3>'), html.indexOf('</ul>'));
    expect(list).toMatch(
      new RegExp(`<li>arguments nested under <code>${under}</code>: \\d tools? \\([^)]*find_flights`),
    );
    expect(list).toMatch(/<li>optional parameters added: <code>\w+<\/code> \(/);
  });

  it('gives the same bytes for the same rows and seed, another sample for another seed', async () => {
    const pages = ['a', 'b', 'c'].map((name) => join(folder, `${name}.html`));
    for (const [index, page] of pages.entries()) {
      const seed = index === 2 ? '99' : '1';
      const run = await hsa([
        'review',
        rowsFile,
        '--harness',
        harnessFile,
        '-o',
        page,
        '--sample',
        '2',
        '--seed',
        seed,
      ]);
      expect(run.status, run.stderr).toBe(0);
    }
    const [a, b, c] = pages.map((page) => readFileSync(page, 'utf8'));
    expect(b).toBe(a);
    const shown = (html: string) =>
      [...html.matchAll(/<article class="row" id="row-(\d+)"/g)].map((match) => match[1]);
    expect(shown(a as string)).toHaveLength(2);
    expect(shown(c as string)).not.toEqual(shown(a as string));
  });

  it('reads rows by reference through their sidecar, as hsa augment writes them', async () => {
    const fixture = new URL('../../fixtures/livestream/', import.meta.url).pathname;
    const trajectories = join(folder, 'livestream.jsonl');
    writeFileSync(
      trajectories,
      `${readFileSync(join(fixture, 'trajectories.jsonl'), 'utf8').split('\n').slice(0, 3).join('\n')}\n`,
    );
    const rows = join(folder, 'augmented', 'rows.jsonl');
    const augmented = await hsa([
      'augment',
      '--harness',
      join(fixture, 'harness.yaml'),
      '--trajectories',
      trajectories,
      '--variants',
      '2',
      '--variant-pool',
      '4',
      '--workers',
      '1',
      '--out',
      rows,
    ]);
    expect(augmented.status, augmented.stderr).toBe(0);
    const page = join(folder, 'augmented', 'review.html');
    const run = await hsa([
      'review',
      rows,
      '--harness',
      join(fixture, 'harness.yaml'),
      '-o',
      page,
      '--sample',
      '4',
    ]);
    expect(run.status, run.stderr).toBe(0);
    const html = readFileSync(page, 'utf8');
    expect(html.match(/<article class="row"/g)).toHaveLength(4);
    // Every row of `hat` changes texts: each shows its changed parts with marked words.
    expect(html.match(/<section class="part"/g)?.length).toBeGreaterThan(0);
    expect(html).toMatch(/<ins>[^<]+<\/ins>/);
    // The default sidecar is an input too.
    const onSidecar = await hsa([
      'review',
      rows,
      '--harness',
      join(fixture, 'harness.yaml'),
      '-o',
      join(folder, 'augmented', 'rows.variants.jsonl'),
    ]);
    expect(onSidecar.status).toBe(2);
    expect(onSidecar.stderr).toMatch(/is the input --sidecar 1/);
  });

  it('refuses an output that is one of its inputs, and writes nothing', async () => {
    const before = readFileSync(rowsFile, 'utf8');
    const run = await hsa(['review', rowsFile, '--harness', harnessFile, '-o', rowsFile]);
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe(
      `hsa: ${rowsFile}: cannot write: it is the input <rows> ${rowsFile}; name another output`,
    );
    expect(readFileSync(rowsFile, 'utf8')).toBe(before);
    const onHarness = await hsa(['review', rowsFile, '--harness', harnessFile, '-o', harnessFile]);
    expect(onHarness.status).toBe(2);
    expect(onHarness.stderr).toMatch(/is the input --harness/);
  });

  it('refuses a row whose variant is not a harness, with its line and path, in one line', async () => {
    const bad = join(folder, 'bad.jsonl');
    const good = readFileSync(rowsFile, 'utf8').split('\n')[0] as string;
    const broken = JSON.parse(good);
    broken.harness.skills = 'none';
    writeFileSync(bad, `${good}\n${JSON.stringify(broken)}\n`);
    const run = await hsa(['review', bad, '--harness', harnessFile, '-o', join(folder, 'bad.html')]);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(
      new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: \\$\\.harness\\.skills: `),
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses rows of another base', async () => {
    const other = join(folder, 'other.json');
    writeFileSync(other, JSON.stringify({ ...travelHarnessInput(), id: 'another-airline' }));
    const run = await hsa(['review', rowsFile, '--harness', other, '-o', join(folder, 'other.html')]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/rows\.jsonl:\d+: .*other\.json is not the base of row ex-\d\/0/);
  });
});
