// Every example in examples/ runs as a user would run it, and prints what it promises.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './support/run-cli.js';

const run = (file: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', file], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout: 120_000,
  });

describe('examples', () => {
  it('validate-and-render.ts', () => {
    const result = run('examples/validate-and-render.ts');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^(\d+) read = \1 valid \+ 0 invalid$/m);
    expect(result.stdout).toContain('You are Xiaoyu, the AI host');
  });

  it('augment-fixture.ts', () => {
    const result = run('examples/augment-fixture.ts');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('10 certified rows');
    expect(result.stdout).toContain('re-certified: true');
    const mapped = /under the variant: (.+) {2}→ {2}base: (.+)$/m.exec(result.stdout);
    expect(mapped?.[1]).not.toBe(mapped?.[2]);
  });

  it('custom-operator.ts', () => {
    const result = run('examples/custom-operator.ts');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/laws hold: \d+ of 25 runs applied the operator/);
    expect(result.stdout).toContain('"type":"rename_tools"');
  });
});

describe('invariance example', () => {
  it('invariance.ts: the brittle agent fails on one rename, replayed; the robust agent passes 200 runs', () => {
    const result = run('examples/invariance.ts');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/minimal perturbation: tools\/rename /);
    expect(result.stdout).toContain('replayed: tools/rename');
    expect(result.stdout).toContain('robust agent: invariant over 200 runs');
  });
});

describe('benchmark example', () => {
  it('bench-round-trip.ts: the answer key scores 100%, the brittle predictor shows a gap in the tool dimension', () => {
    const result = run('examples/bench-round-trip.ts');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('answer-key predictor: original 1, variants 1');
    const gaps = /overall gap ([\d.]+); tools ([\d.]+), prompt ([\d.]+), skill-content ([\d.]+)/.exec(
      result.stdout,
    );
    expect(Number(gaps?.[1])).toBeGreaterThan(0);
    expect(Number(gaps?.[2])).toBeGreaterThan(Number(gaps?.[3]));
    expect(Number(gaps?.[2])).toBeGreaterThan(Number(gaps?.[4]));
  });
});
