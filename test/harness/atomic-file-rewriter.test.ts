// `atomicFileRewriter`: a checkpoint replaced after every unit; only the first write sweeps the folder of
// a dead writer's temporaries and makes the folder, later writes rename a temporary into place, and a write
// that finds the folder gone makes it again.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { atomicFileRewriter } from '../../src/harness/write-file-atomic.js';

describe('atomicFileRewriter', () => {
  it('holds the last text written, leaves no temporary, and survives its folder being removed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hsa-rewriter-'));
    const file = join(dir, 'run', 'checkpoint.json');
    const save = atomicFileRewriter(file);
    await save('{"units":1}\n');
    writeFileSync(join(dir, 'run', 'checkpoint.json.999999999.3.partial'), 'stale');
    for (let units = 2; units <= 20; units++) await save(`{"units":${units}}\n`);
    expect(readFileSync(file, 'utf8')).toBe('{"units":20}\n');
    // Later writes do not sweep (that is the first write's work): the stale file is still there.
    expect(readdirSync(join(dir, 'run')).sort()).toEqual([
      'checkpoint.json',
      'checkpoint.json.999999999.3.partial',
    ]);
    rmSync(join(dir, 'run'), { recursive: true });
    await save('{"units":21}\n');
    expect(readFileSync(file, 'utf8')).toBe('{"units":21}\n');
    expect(readdirSync(join(dir, 'run'))).toEqual(['checkpoint.json']);
  });

  it("sweeps a dead writer's temporaries at its first write", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hsa-rewriter-'));
    const file = join(dir, 'checkpoint.json');
    writeFileSync(join(dir, 'checkpoint.json.999999999.3.partial'), 'stale');
    await atomicFileRewriter(file)('{"units":1}\n');
    expect(readdirSync(dir)).toEqual(['checkpoint.json']);
  });
});
