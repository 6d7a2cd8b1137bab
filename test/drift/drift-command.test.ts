// hsa drift on a real git history built in the test: each edit described, its task-preserving flag, and
// coverage by `hat` (with the helpdesk's gold trajectories, so hook budgets can be sampled) and `tools-only`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { DriftDocument } from '../../src/drift/drift.js';
import { driftChartCount } from '../../src/drift/report.js';
import { projectRoot } from '../support/run-cli.js';
import { hsa } from '../support/run-hsa.js';
import { buildHistoryRepo, commitFile, helpdeskFile } from './history-repo.js';

const trajectories = join(projectRoot, 'fixtures/helpdesk/trajectories.jsonl');
const checkScript = join(projectRoot, 'scripts/check-report-in-chromium.mjs');

const read = (folder: string): DriftDocument => JSON.parse(readFileSync(join(folder, 'drift.json'), 'utf8'));
const kinds = (document: DriftDocument) =>
  document.edits.map((edit) => edit.changes.map((change) => `${change.dimension}/${change.kind}`));

describe('hsa drift', () => {
  let repo: string;
  let out: string;
  let hat: DriftDocument;
  let toolsOnly: DriftDocument;
  let hatRun: { status: number; stdout: string; stderr: string };
  beforeAll(async () => {
    repo = buildHistoryRepo().repo;
    out = mkdtempSync(join(tmpdir(), 'hsa-drift-out-'));
    hatRun = await hsa([
      'drift',
      '--repo',
      repo,
      '--path',
      'agent/harness.yaml',
      '--policy',
      'hat',
      '--trajectories',
      trajectories,
      '--samples',
      '32',
      '-o',
      join(out, 'hat'),
    ]);
    hat = read(join(out, 'hat'));
    const run = await hsa([
      'drift',
      '--repo',
      repo,
      '--path',
      'agent/harness.yaml',
      '--policy',
      'tools-only',
      '--samples',
      '16',
      '-o',
      join(out, 'tools-only'),
    ]);
    expect(run.status, run.stderr).toBe(0);
    toolsOnly = read(join(out, 'tools-only'));
  }, 240_000);
  afterAll(() => {
    rmSync(repo, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  });

  it('describes every consecutive pair of the history, oldest first', () => {
    expect(hatRun.status, hatRun.stderr).toBe(0);
    expect(hat.versions.map((version) => version.subject)).toEqual([
      'helpdesk harness',
      'rename skill escalation to handover',
      'rename reset_password.delivery to delivery_channel',
      'prompt: policies before tools',
      'reply_length: retry up to 3 times',
      'add get_asset_inventory',
    ]);
    expect(kinds(hat)).toEqual([
      ['skill-ids/skill-renamed'],
      ['tools/parameter-renamed'],
      ['prompt/sections-reordered'],
      ['hooks/budget-changed'],
      ['tools/tool-added'],
    ]);
    const [rename, parameter, , budget, added] = hat.edits;
    expect(rename?.changes[0]).toMatchObject({ map: { escalation: 'handover' }, count: 1, total: 11 });
    expect(parameter?.changes[0]).toMatchObject({ map: { 'reset_password.delivery': 'delivery_channel' } });
    expect(budget?.changes[0]).toMatchObject({ subjects: ['reply_length'], conditional: true });
    expect(added?.changes[0]).toMatchObject({ subjects: ['get_asset_inventory'], taskPreserving: false });
    expect(hat.edits.map((edit) => edit.taskPreserving)).toEqual([true, true, true, true, false]);
  });

  it('hat covers every task-preserving edit; the added tool is marked for regeneration', () => {
    expect(hat.edits.map((edit) => edit.covered)).toEqual([true, true, true, true, null]);
    expect(hat.edits[0]?.changes[0]?.reason).toMatch(
      /skill-ids\/rename .*sampled variants make skill-renamed/,
    );
    expect(hat.edits[4]?.reason).toMatch(/changes the task \(tool-added\): regenerate/);
    expect(hat.uncovered).toEqual([]);
    expect(hatRun.stdout).toMatch(/dd5f824|→/);
    expect(hatRun.stdout).toMatch(/skill-ids\/skill-renamed 1\/11 ✓/);
  });

  it('tools-only covers the parameter rename only, and says what would cover the rest', () => {
    expect(toolsOnly.edits.map((edit) => edit.covered)).toEqual([false, true, false, false, null]);
    expect(toolsOnly.uncovered.map((entry) => [entry.kind, entry.suggestion])).toEqual([
      ['skill-renamed', 'add skill-ids/rename to dimensions.skill-ids at severity slight or more'],
      ['sections-reordered', 'add prompt/reorder-sections to dimensions.prompt at severity slight or more'],
      ['budget-changed', 'add hooks/vary-budgets to dimensions.hooks at severity slight or more'],
    ]);
    expect(toolsOnly.byDimension.tools).toEqual({ changes: 2, taskPreserving: 1, covered: 1 });
  });

  it('without trajectories, a budget change is uncovered because its operator needs an example', async () => {
    const folder = join(out, 'no-examples');
    const run = await hsa([
      'drift',
      '--repo',
      repo,
      '--path',
      'agent/harness.yaml',
      '--policy',
      'hat',
      '--samples',
      '8',
      '-o',
      folder,
    ]);
    expect(run.status, run.stderr).toBe(0);
    const budget = read(folder).uncovered.find((entry) => entry.kind === 'budget-changed');
    expect(budget?.reason).toMatch(/hooks\/vary-budgets needs an example/);
    expect(budget?.suggestion).toMatch(/--trajectories/);
  }, 120_000);

  it('writes byte-identical files for the same inputs', async () => {
    const again = join(out, 'tools-only-again');
    const run = await hsa([
      'drift',
      '--repo',
      repo,
      '--path',
      'agent/harness.yaml',
      '--policy',
      'tools-only',
      '--samples',
      '16',
      '-o',
      again,
    ]);
    expect(run.status).toBe(0);
    for (const file of ['drift.json', 'drift.html'])
      expect(readFileSync(join(again, file), 'utf8')).toBe(
        readFileSync(join(out, 'tools-only', file), 'utf8'),
      );
  }, 120_000);

  it('reads versions given as files (--harness)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'hsa-drift-files-'));
    const files = buildHistoryRepo()
      .versions.slice(0, 3)
      .map((version, index) => {
        const file = join(folder, `v${index + 1}.yaml`);
        writeFileSync(file, YAML.stringify(version));
        return file;
      });
    const run = await hsa([
      'drift',
      '--harness',
      ...files,
      '--policy',
      'tools-only',
      '--samples',
      '4',
      '-o',
      join(folder, 'out'),
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(kinds(read(join(folder, 'out')))).toEqual([
      ['skill-ids/skill-renamed'],
      ['tools/parameter-renamed'],
    ]);
    rmSync(folder, { recursive: true, force: true });
  }, 120_000);

  it('the HTML page opens in headless Chromium, offline, and escapes what it shows', () => {
    const html = readFileSync(join(out, 'hat', 'drift.html'), 'utf8');
    expect(html).not.toMatch(/<script src|<link |https?:\/\//);
    expect(html).toContain('escalation → handover');
    const run = spawnSync(
      process.execPath,
      [checkScript, join(out, 'hat', 'drift.html'), String(driftChartCount)],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  }, 90_000);
});

describe('hsa drift errors', () => {
  const out = () => join(mkdtempSync(join(tmpdir(), 'hsa-drift-err-')), 'out');

  it('a missing repository, a folder that is not one, and a path never committed are usage errors (exit 2)', async () => {
    const missing = await hsa(['drift', '--repo', '/nonexistent/repo', '--path', 'h.yaml', '-o', out()]);
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim()).toMatch(/--repo \/nonexistent\/repo: no such folder$/);
    const plain = mkdtempSync(join(tmpdir(), 'hsa-drift-plain-'));
    const notGit = await hsa(['drift', '--repo', plain, '--path', 'h.yaml', '-o', out()]);
    expect(notGit.status).toBe(2);
    expect(notGit.stderr).toMatch(/not a git repository/);
    const { repo } = buildHistoryRepo();
    const never = await hsa(['drift', '--repo', repo, '--path', 'other/harness.yaml', '-o', out()]);
    expect(never.status).toBe(2);
    expect(never.stderr).toMatch(/--path other\/harness.yaml: never committed in /);
    expect(`${missing.stderr}${notGit.stderr}${never.stderr}`).not.toMatch(/\n\s+at /);
    const neither = await hsa(['drift', '-o', out()]);
    expect(neither.status).toBe(2);
    rmSync(plain, { recursive: true, force: true });
    rmSync(repo, { recursive: true, force: true });
  }, 60_000);

  it('an invalid version is reported with its location and skipped, not a crash', async () => {
    const { repo } = buildHistoryRepo();
    const text = readFileSync(helpdeskFile, 'utf8');
    commitFile(
      repo,
      'agent/harness.yaml',
      text.replace('maxRetries: 2', 'maxRetries: -4'),
      'broken budget',
      20,
    );
    commitFile(repo, 'agent/harness.yaml', 'id: [unclosed\n', 'broken yaml', 21);
    commitFile(repo, 'agent/harness.yaml', text, 'back to the helpdesk harness', 22);
    const folder = out();
    const run = await hsa([
      'drift',
      '--repo',
      repo,
      '--path',
      'agent/harness.yaml',
      '--policy',
      'tools-only',
      '--samples',
      '4',
      '-o',
      folder,
    ]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^[0-9a-f]{7}:agent\/harness.yaml: invalid harness: .*hooks.*maxRetries/m);
    expect(run.stderr).toMatch(/^[0-9a-f]{7}:agent\/harness.yaml: invalid harness: .*invalid YAML/m);
    const document = read(folder);
    expect(document.versions.filter((version) => !version.valid)).toHaveLength(2);
    const last = document.edits.at(-1);
    expect(last?.skipped).toHaveLength(2);
    rmSync(repo, { recursive: true, force: true });
  }, 120_000);
});
