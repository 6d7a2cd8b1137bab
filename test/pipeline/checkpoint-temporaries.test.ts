import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCheckpointedLines, openRunFiles } from '../../src/pipeline/checkpoint.js';

// A SIGKILL between writing a checkpoint's temporary and renaming it leaves `checkpoint.json.<pid>.tmp`;
// opening the run again (fresh or resumed) must remove it, or a resumed run differs from a whole one.
describe('checkpoint temporaries left by a killed run', () => {
  it('openRunFiles removes checkpoint and manifest temporaries of any process, and nothing else', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hsa-ckpt-'));
    const first = await openRunFiles(dir, { resume: false, runHash: 'h' });
    await first.commitUnit({ examples: ['{"a":1}\n'], rejects: [] }, first.counts);
    await first.close();
    await writeFile(join(dir, 'checkpoint.json.4242.tmp'), '');
    await writeFile(join(dir, 'manifest.json.7.tmp'), '{');
    await writeFile(join(dir, 'notes.tmp'), 'user file');
    const resumed = await openRunFiles(dir, { resume: true, runHash: 'h' });
    expect(resumed.done).toBe(1);
    await resumed.close();
    expect((await readdir(dir)).sort()).toEqual([
      'checkpoint.json',
      'examples.jsonl',
      'notes.tmp',
      'rejects.jsonl',
    ]);
  });

  it('openCheckpointedLines removes its own checkpoint temporaries', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hsa-ckpt-'));
    const checkpoint = join(dir, 'rows.jsonl.checkpoint.json');
    await writeFile(`${checkpoint}.99.tmp`, '');
    const files = await openCheckpointedLines({
      files: { rows: join(dir, 'rows.jsonl') },
      checkpoint,
      runHash: 'h',
      resume: true,
    });
    await files.close();
    expect(await readdir(dir)).toEqual(['rows.jsonl']);
  });
});
