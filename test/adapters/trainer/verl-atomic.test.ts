// The veRL parquet goes through the one atomic writer as every other output: a temporary sibling renamed on
// close, removed on abort, and a dead writer's leftovers beside it removed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verlExporter } from '../../../src/adapters/trainer/verl.js';

/** The id of a process that has exited, so no live writer owns it. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid as number;

describe('veRL parquet output', () => {
  it("removes a dead writer's temporary and leaves only the finished files", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'hsa-verl-atomic-'));
    const stale = `train.parquet.${deadPid()}.1.partial`;
    writeFileSync(join(folder, stale), 'half a file');
    const sink = await verlExporter.open(folder, { datasetClass: false });
    await sink.close();
    expect(readdirSync(folder).sort()).toEqual(['README.md', 'train.parquet']);
  });

  it('leaves nothing behind on abort', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'hsa-verl-atomic-'));
    const sink = await verlExporter.open(folder, { datasetClass: false });
    await sink.abort?.();
    expect(readdirSync(folder)).toEqual([]);
  });
});
