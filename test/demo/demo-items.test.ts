// The demo reads its bench items through the bench's reader: a `__proto__` key is refused with its line,
// as `hsa bench generate` refuses it, instead of being parsed by hand and passed on.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { buildPipelineDependencies } from '../../src/adapters/pipeline-dependencies.js';
import { createRegistry } from '../../src/augment/registry.js';
import { runDemo } from '../../src/demo/run-demo.js';
import { HarnessAugmentError } from '../../src/harness/issues.js';
import { parsePipelineConfig } from '../../src/pipeline/config.js';
import { projectRoot } from '../support/run-cli.js';

const fixture = (path: string) => join(projectRoot, 'fixtures/livestream', path);
const folder = await mkdtemp(join(tmpdir(), 'hsa-demo-items-'));
afterAll(() => rm(folder, { recursive: true, force: true }));

it('refuses a bench item with a __proto__ key, naming the file and line', async () => {
  const [first, second] = (await readFile(fixture('bench/items.jsonl'), 'utf8')).split('\n');
  const items = join(folder, 'items.jsonl');
  // The second item carries a `__proto__` key in its free-form `meta`, which the item schema accepts.
  const poisoned = second?.replace('"meta":{', '"meta":{"__proto__":{"polluted":true},');
  expect(poisoned).not.toBe(second);
  await writeFile(items, `${first}\n${poisoned}\n`);
  const dependencies = buildPipelineDependencies(
    parsePipelineConfig({
      harness: fixture('harness.yaml'),
      inputs: { trajectories: fixture('trajectories.jsonl') },
    }),
    { registry: createRegistry(builtinOperators) },
  );
  const error = await runDemo({
    harness: fixture('harness.yaml'),
    trajectories: fixture('trajectories.jsonl'),
    items,
    out: join(folder, 'out'),
    seed: '1',
    dependencies,
    sizes: { trainTasks: 4, benchItems: 2, benchVariants: 1, steps: 1, ablation: false },
  }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(HarnessAugmentError.isInstance(error)).toBe(true);
  expect((error as HarnessAugmentError).message).toBe(`${items}:2: not a bench item`);
  expect((error as HarnessAugmentError).issues[0]).toMatchObject({
    code: 'forbidden_key',
    path: ['gold', 'meta', '__proto__'],
    line: 2,
  });
});
