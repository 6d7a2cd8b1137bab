// The third-party scenario (examples/third-party-scenario/), written against the package's entry points only
// (`harness-augment`, `/runtime`, `/testing`; tsconfig.json resolves them to this repository's source),
// passes the scenario laws and runs through `hsa sim run --scenario <module>` as the bundled ones do.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot, runCli } from './support/run-cli.js';

const folder = join(projectRoot, 'examples/third-party-scenario');

describe('a third-party scenario', () => {
  it('imports only the package entry points', () => {
    for (const file of ['parcel-scenario.ts', 'check-laws.ts']) {
      const text = readFileSync(join(folder, file), 'utf8');
      const specifiers = [...text.matchAll(/from '([^']+)'/g)].map((match) => match[1]);
      expect(
        specifiers.filter(
          (specifier) => !/^(harness-augment(\/\w+)?|node:\w+|\.\/[\w-]+\.js)$/.test(specifier!),
        ),
      ).toEqual([]);
    }
  });

  it('check-laws.ts: the scenario laws hold, and it simulates under tools-only variants at reward 1', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', join(folder, 'check-laws.ts')], {
      cwd: projectRoot,
      encoding: 'utf8',
      timeout: 180_000,
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^laws hold: 3 runs, 15 episodes, 15 golds checked$/m);
    expect(result.stdout).toMatch(/^simulated: 5 episodes, 5 under variants, mean reward 1\.00$/m);
  });

  it('hsa sim run --scenario <its module> plays it under tools-only variants, all valid', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hsa-third-party-'));
    const out = join(dir, 'parcels.jsonl');
    const run = runCli([
      'sim',
      'run',
      '--scenario',
      join(folder, 'parcel-scenario.ts'),
      '--harness',
      join(folder, 'harness.yaml'),
      '--augment',
      'tools-only',
      '--seed',
      'cli',
      '--out',
      out,
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^episodes: 5 \(oracle, augmented with tools-only\)$/m);
    expect(run.stdout).toMatch(/valid under their harness: 5 \/ 5/);
    const ids = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ids).toEqual(['parcel-1', 'parcel-2', 'parcel-3', 'parcel-4', 'parcel-5']);
  });
});
