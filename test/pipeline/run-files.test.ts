// The SFT stage's output files commit finished units a batch at a time: every unit committed before a close
// is counted by the checkpoint, and a resume cuts lines no checkpoint counts.
import { appendFile, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRunFiles } from '../../src/pipeline/checkpoint.js';

const line = (index: number) => `${JSON.stringify({ id: `u/${index}` })}\n`;

describe('SFT run files', () => {
  it('counts every unit committed before close, across batches, and resumes after the last one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hsa-run-files-'));
    const first = await openRunFiles(dir, { resume: false, runHash: 'h', sidecar: true });
    // More units than one batch holds, so that one batch is written before the close.
    for (let index = 0; index < 300; index++)
      await first.commitUnit(
        { examples: [line(index)], rejects: index % 7 === 0 ? [line(index)] : [], variants: [] },
        { ...first.counts, units: index + 1 },
      );
    await first.close();
    // Lines a killed run appended after its last checkpoint.
    await appendFile(join(dir, 'examples.jsonl'), '{"id":"torn');

    const resumed = await openRunFiles(dir, { resume: true, runHash: 'h', sidecar: true });
    expect(resumed.done).toBe(300);
    expect(resumed.counts.units).toBe(300);
    const examples = await readFile(join(dir, 'examples.jsonl'), 'utf8');
    expect(examples).toBe(Array.from({ length: 300 }, (_, index) => line(index)).join(''));
    await resumed.commitUnit({ examples: [line(300)], rejects: [] }, { ...resumed.counts, units: 301 });
    await resumed.complete({ ...resumed.counts, units: 301 });
    expect((await readFile(join(dir, 'examples.jsonl'), 'utf8')).endsWith(line(300))).toBe(true);
    expect((await readFile(join(dir, 'rejects.jsonl'), 'utf8')).split('\n').length - 1).toBe(43);
  });
});
