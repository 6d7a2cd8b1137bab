// examples/replay.ts runs as a user would run it: the relabelled gold scores 1, the base names lower.
import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { projectRoot } from './support/run-cli.js';

it('replay.ts: helpdesk logs on its tools module under hat variants, gold at 1, base names lower', () => {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'examples/replay.ts'], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  expect(result.stdout).toMatch(
    /^gold: 30 episodes under hat variants; toolCallMatch 1\.0000, skillSelection 1\.0000, hookCompliance 1\.0000, grounding 1\.0000$/m,
  );
  const memorised =
    /^base-names: 30 episodes under hat variants; toolCallMatch ([\d.]+), skillSelection ([\d.]+), hookCompliance ([\d.]+)/m.exec(
      result.stdout,
    );
  expect(memorised).not.toBeNull();
  for (const value of memorised!.slice(1)) expect(Number(value)).toBeLessThan(0.9);
});
