// The runtime examples run as a user would run them, and print what docs/runtime.md shows.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './support/run-cli.js';

const run = (file: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', file], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout: 120_000,
  });

describe('runtime examples', () => {
  it('custom-scenario.ts: a scenario of its own runs under the base and under tools-only variants, the backend seeing base names', () => {
    const result = run('examples/custom-scenario.ts');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('base harness: 6 episodes, 6 valid, mean total reward 1.000');
    expect(result.stdout).toContain('tools-only variants: 6 episodes, 6 valid, mean total reward 1.000');
    // The variants renamed the tools the model saw; the backend always got the base names.
    const variantTools = /tools-only variants[^\n]*\n {2}tools called: (.+)/
      .exec(result.stdout)?.[1]
      ?.split(', ');
    expect(variantTools?.some((name) => !['find_book', 'load_skill', 'reserve_book'].includes(name))).toBe(
      true,
    );
    expect(result.stdout.match(/the backend was called as: find_book, reserve_book$/gm)).toHaveLength(2);
  });

  it('agent-loop.ts: a scripted model recovers from a tool timeout and a hook retry; the spam is blocked', () => {
    const result = run('examples/agent-loop.ts');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('"type":"timeout"');
    expect(result.stdout).toContain('[hook_rejected short_reply]');
    expect(result.stdout).toContain('[hook_feedback short_reply]');
    expect(result.stdout).toContain('[hook_blocked no_links]');
    expect(result.stdout).toMatch(/^assistant Jasmine tea is 12\.5 per 100 g\.$/m);
    expect(result.stdout).toContain('turns ended: reply, hook_blocked');
    expect(result.stdout).toContain('tool errors: timeout');
    expect(result.stdout).toContain('valid under the harness: true');
  });

  it('simulate.ts: 20 hat episodes with faults are all valid and accurate, and recover from every fault', () => {
    const result = run('examples/simulate.ts');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const summary = /^20 episodes under hat variants, (\d+) valid; (\d+) tool faults, (\d+) recovered$/m.exec(
      result.stdout,
    );
    expect(summary?.[1]).toBe('20');
    expect(Number(summary?.[2])).toBeGreaterThan(0);
    expect(summary?.[3]).toBe(summary?.[2]);
    expect(result.stdout).toMatch(/ faults: (timeout|malformed_output|permission_denied)×\d/);
    const means = /^mean rewards: accuracy ([\d.]+), effectiveness ([\d.]+), .*total ([\d.]+)$/m.exec(
      result.stdout,
    );
    expect(means?.[1]).toBe('1.0000');
    expect(Number(means?.[3])).toBeGreaterThan(0.8);
    expect(Number(means?.[3])).toBeLessThanOrEqual(1);
  });
});
