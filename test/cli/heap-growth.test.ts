import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

/** The probe's largest committed old space over its live old space, in a fresh `node`. */
async function growth(nodeFlags: string[], probeFlags: string[]): Promise<number> {
  const { stdout } = await run(
    process.execPath,
    [...nodeFlags, '--expose-gc', '--import', 'tsx', 'test/cli/heap-growth-probe.ts', ...probeFlags],
    { maxBuffer: 1 << 20 },
  );
  const { liveBytes, committedBytes } = JSON.parse(stdout.trim()) as Record<string, number>;
  return (committedBytes as number) / (liveBytes as number);
}

// Space, not time: the probe reports how far V8 let the old generation grow past what it keeps alive.
describe('limitHeapGrowth', () => {
  it('keeps the old generation near the live heap, where V8 alone lets it grow several times over', async () => {
    const [alone, limited] = await Promise.all([growth([], []), growth([], ['--limit'])]);
    // Measured on Node 20: ~4.5× alone, ~2× limited (the 30% factor plus V8's minimum step).
    expect(alone).toBeGreaterThan(3);
    expect(limited).toBeLessThan(3);
  });

  it('leaves a growing factor given on the command line as it is', async () => {
    const given = await growth(['--heap-growing-percent=400'], ['--limit']);
    expect(given).toBeGreaterThan(3);
  });
});
