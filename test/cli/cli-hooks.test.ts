// `hsa validate` refuses a hook pattern that cannot run in linear time, with exit 1 and one clear line;
// `--hook-checks <module>` brings the custom checks a harness names to `validate` and `augment`.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { projectRoot, runCli } from '../support/run-cli.js';
import { resetTrajectory, scopedHarnessInput } from '../support/scoped-hook-harness.js';
import { travelHarnessInput } from '../support/travel-harness.js';

describe('hsa validate and hook patterns', () => {
  it('refuses a backreference with exit 1 and one line naming the hook path and the reason', () => {
    const folder = mkdtempSync(join(tmpdir(), 'hsa-patterns-'));
    const file = join(folder, 'flood.yaml');
    const input = travelHarnessInput();
    (input.hooks.items as unknown[]).push({
      id: 'no_flooding',
      stage: 'input',
      check: { type: 'regex', pattern: '(.)\\1{9,}', mode: 'must_not' },
      onFail: { action: 'block' },
    });
    const text = YAML.stringify(input);
    writeFileSync(file, text);
    const line = text.split('\n').findIndex((row) => row.includes('pattern:')) + 1;
    const run = runCli(['validate', file]);
    expect(run.status).toBe(1);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      `${file}:${line} $.hooks.items[7].check.pattern: pattern is refused: invalid escape sequence: \`\\1\` (patterns run in linear time with re2js: backreferences and lookaround are not supported) [invalid_regex]`,
    );
    expect(run.stderr).not.toMatch(/\bat .*\.ts:\d+/);
  });

  it('--hook-checks brings custom checks to validate and augment', () => {
    const folder = mkdtempSync(join(tmpdir(), 'hsa-hook-checks-'));
    const harness = join(folder, 'account.yaml');
    const trajectories = join(folder, 'reset.jsonl');
    writeFileSync(harness, YAML.stringify(scopedHarnessInput()));
    writeFileSync(trajectories, `${JSON.stringify(resetTrajectory())}\n`);
    const module = join(projectRoot, 'test/support/scoped-hook-checks.ts');

    const without = runCli(['validate', harness]);
    expect(without.status).toBe(1);
    expect(without.stdout).toContain('no custom hook check "argument_not_in" is registered');

    const valid = runCli(['validate', harness, '--trajectories', trajectories, '--hook-checks', module]);
    expect(valid.stderr).toBe('');
    expect(valid.status).toBe(0);
    expect(valid.stdout).toContain('1 read, 1 valid, 0 invalid');

    const out = join(folder, 'rows.jsonl');
    const augmented = runCli([
      'augment',
      '--harness',
      harness,
      '--trajectories',
      trajectories,
      '--variants',
      '2',
      '--out',
      out,
      '--hook-checks',
      module,
    ]);
    expect(augmented.status).toBe(0);
    const rows = readFileSync(out, 'utf8').trim().split('\n');
    expect(rows).toHaveLength(2);

    const missing = runCli(['validate', harness, '--hook-checks', join(folder, 'nope.ts')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
  });
});
