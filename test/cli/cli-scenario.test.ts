// `--scenario` as a user gives it: a module path exporting a scenario (the library-desk example), clear
// usage errors for a module that exports none and for an unknown name, and the live-stream shop reading
// the catalog.json beside its harness.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot, runCli } from '../support/run-cli.js';

const libraryHarness = join(projectRoot, 'examples/custom-scenario/harness.yaml');
const libraryModule = join(projectRoot, 'examples/custom-scenario/library-scenario.ts');
const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('hsa sim run --scenario <module>', () => {
  it('runs the scenario a module exports, under tools-only variants, all valid and scored 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hsa-scenario-'));
    const out = join(dir, 'library.jsonl');
    const run = runCli([
      'sim',
      'run',
      '--scenario',
      libraryModule,
      '--harness',
      libraryHarness,
      '--augment',
      'tools-only',
      '--seed',
      'cli',
      '--out',
      out,
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^episodes: 6 \(oracle, augmented with tools-only\)$/m);
    expect(run.stdout).toMatch(/valid under their harness: 6 \/ 6/);
    const report = lines(join(dir, 'library.rewards.jsonl'));
    expect(report.map((row) => (row.rewards as { total: number }).total)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(lines(join(dir, 'library.variants.jsonl')).length).toBeGreaterThan(0);
    expect(lines(out).map((row) => row.id)).toEqual(['lib-1', 'lib-2', 'lib-3', 'lib-4', 'lib-5', 'lib-6']);
  });

  it('refuses a module without a scenario, a module that does not load, and an unknown name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hsa-scenario-'));
    const empty = join(dir, 'empty.mjs');
    writeFileSync(empty, 'export const other = 1;\n');
    const notOne = join(dir, 'not-one.mjs');
    writeFileSync(notOne, 'export default { name: "half" };\n');
    const args = (scenario: string) => [
      'sim',
      'run',
      '--scenario',
      scenario,
      '--harness',
      libraryHarness,
      '--out',
      join(dir, 'x.jsonl'),
    ];
    const noExport = runCli(args(empty));
    expect(noExport.status).toBe(2);
    expect(noExport.stderr).toMatch(/must export `default` or `scenario`/);
    const half = runCli(args(notOne));
    expect(half.status).toBe(2);
    expect(half.stderr).toMatch(/the export is not a Scenario \(it needs name, check/);
    const missing = runCli(args(join(dir, 'nowhere.mjs')));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/cannot import .*nowhere\.mjs/);
    const unknown = runCli(args('airline'));
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(
      /unknown scenario "airline"; known: helpdesk, livestream, replay, or a module path/,
    );
    const required = runCli(['sim', 'run', '--harness', libraryHarness, '--out', join(dir, 'x.jsonl')]);
    expect(required.status).toBe(2);
    expect(required.stderr).toMatch(/--scenario/);
  });
});

describe('--scenario livestream reads the catalog beside the harness', () => {
  it('a changed price in that catalog.json reaches the tool results; a broken one is refused with its path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hsa-catalog-'));
    copyFileSync(join(projectRoot, 'fixtures/livestream/harness.yaml'), join(dir, 'harness.yaml'));
    const catalog = JSON.parse(readFileSync(join(projectRoot, 'fixtures/livestream/catalog.json'), 'utf8'));
    for (const product of catalog.products) product.live_price = 1234;
    writeFileSync(join(dir, 'catalog.json'), JSON.stringify(catalog));
    const out = join(dir, 'sim.jsonl');
    const run = runCli([
      'sim',
      'run',
      '--scenario',
      'livestream',
      '--harness',
      join(dir, 'harness.yaml'),
      '--episodes',
      '8',
      '--out',
      out,
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    // In the request context (plain JSON) and in the tool results (JSON inside a JSON string).
    const text = readFileSync(out, 'utf8');
    const inResults = text.match(/\\"live_price\\":(\d+)/g) ?? [];
    expect(inResults.length).toBeGreaterThan(0);
    const prices = text.match(/\\?"live_price\\?":(\d+)/g) ?? [];
    expect(prices.length).toBeGreaterThan(0);
    expect(prices.every((price) => price.endsWith(':1234'))).toBe(true);
    catalog.products[0].category = 'toys';
    writeFileSync(join(dir, 'catalog.json'), JSON.stringify(catalog));
    const broken = runCli([
      'sim',
      'run',
      '--scenario',
      'livestream',
      '--harness',
      join(dir, 'harness.yaml'),
      '--out',
      out,
    ]);
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain('catalog.json: invalid shop catalog: 1 issue(s)');
    expect(broken.stdout).toMatch(/catalog\.json \$\.products\[0\]\.category: .+/);
  });
});

describe('--scenario helpdesk', () => {
  it('replays the bundled helpdesk logs on the helpdesk tools: the log itself, every reward 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hsa-helpdesk-'));
    const out = join(dir, 'helpdesk.jsonl');
    const run = runCli([
      'sim',
      'run',
      '--scenario',
      'helpdesk',
      '--harness',
      join(projectRoot, 'fixtures/helpdesk/harness.yaml'),
      '--episodes',
      '3',
      '--out',
      out,
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/valid under their harness: 3 \/ 3/);
    // The plan draws 3 of the logged conversations; each is played back as it was logged.
    const logged = new Map(
      readFileSync(join(projectRoot, 'fixtures/helpdesk/trajectories.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { id: string; messages: unknown })
        .map((trajectory) => [trajectory.id, trajectory.messages]),
    );
    const played = lines(out);
    expect(played).toHaveLength(3);
    for (const row of played) expect(row.messages).toEqual(logged.get(row.id as string));
    expect(
      lines(join(dir, 'helpdesk.rewards.jsonl')).map((row) => (row.rewards as { total: number }).total),
    ).toEqual([1, 1, 1]);
  });
});
