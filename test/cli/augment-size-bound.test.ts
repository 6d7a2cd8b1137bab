// A harness larger than augmentation takes (`augmentBounds`) is refused before any work, with the bound
// named, by the CLI and by the library's entry points; one at the bound is augmented.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { planApplicability } from '../../src/augment/applicability.js';
import { augment, augmentExample } from '../../src/augment/augment.js';
import { augmentBounds, checkAugmentBounds } from '../../src/augment/size-bound.js';
import { policyFromOptions } from '../../src/cli/operators-registry.js';
import { HarnessAugmentError } from '../../src/harness/issues.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { hsa } from '../support/run-hsa.js';

const fixture = 'fixtures/livestream';

/** The live-stream harness with copies of its skills added (new ids) up to `count` skills. */
async function withSkills(count: number): Promise<Harness> {
  const base = await loadHarnessFile(join(fixture, 'harness.yaml'));
  const items = [...base.skills.items];
  for (let index = 0; items.length < count; index++) {
    const source = base.skills.items[index % base.skills.items.length] as Harness['skills']['items'][number];
    items.push({ ...source, id: `extra_skill_${index}`, description: `extra skill number ${index}` });
  }
  return { ...base, skills: { ...base.skills, items } };
}

describe('the size bound of augmentation', () => {
  const folder = mkdtempSync(join(tmpdir(), 'hsa-size-bound-'));
  let tooLarge: Harness;
  beforeAll(async () => {
    tooLarge = await withSkills(augmentBounds.skills + 1);
  });

  it('hsa augment refuses a harness with more skills than the bound: exit 1, the bound named, nothing written', async () => {
    const harnessFile = join(folder, 'large.json');
    writeFileSync(harnessFile, JSON.stringify(tooLarge));
    const trajectories = join(folder, 'logs.jsonl');
    writeFileSync(
      trajectories,
      readFileSync(join(fixture, 'trajectories.jsonl'), 'utf8').split('\n')[0] ?? '',
    );
    const out = join(folder, 'rows.jsonl');
    const run = await hsa(['augment', '--harness', harnessFile, '--trajectories', trajectories, '-o', out]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      `the harness has ${augmentBounds.skills + 1} skills, more than ${augmentBounds.skills}, the most augmentation takes`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('the library entry points refuse it too, with the issue located at skills.items', async () => {
    const { plan } = await policyFromOptions('hat', undefined);
    const refusal = (error: unknown) =>
      HarnessAugmentError.isInstance(error) && error.issues[0]?.code === 'harness_too_large';
    await expect(planApplicability(plan, tooLarge, [])).rejects.toSatisfy(refusal);
    await expect(augmentExample(tooLarge, {} as never, 0, { plan, seed: 1 })).rejects.toSatisfy(refusal);
    const rows = augment(tooLarge, [], { plan, variants: 1, seed: 1 });
    await expect(rows.next()).rejects.toSatisfy((error: unknown) => {
      return refusal(error) && (error as HarnessAugmentError).issues[0]?.path.join('.') === 'skills.items';
    });
  });

  it('a harness at the bound passes the check', async () => {
    expect(() => checkAugmentBounds(tooLarge)).toThrow(/more than 2000/u);
    expect(checkAugmentBounds(await withSkills(augmentBounds.skills))).toBeUndefined();
  });
});
