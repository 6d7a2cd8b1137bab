// `hsa validate` refuses a hook pattern that cannot run in linear time, with exit 1 and one clear line.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { runCli } from '../support/run-cli.js';
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
});
