// Work per skill is linear: a harness of thousands of skills is renamed and given preambles, where every new
// name was compared with every name accepted before it (and each body's cache key held every identifier of
// the harness) and 3,000 skills never finished. The test's timeout only guards against a hang; the speed
// itself is measured by `npm run bench`, never asserted here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { addPreamble } from '../../../perturbations/skill-content/preamble.js';
import { createNameGuard } from '../../../perturbations/skill-ids/skill-names.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { applyOperator } from '../../../src/index.js';
import { projectRoot } from '../../support/run-cli.js';

const skillCount = 3_000;

function manySkills() {
  const value = YAML.parse(readFileSync(join(projectRoot, 'fixtures/livestream/harness.yaml'), 'utf8'));
  const base = value.skills.items;
  for (let index = 0; value.skills.items.length < skillCount; index++)
    value.skills.items.push({
      ...base[index % base.length],
      id: `extra_skill_${index}`,
      description: `extra skill number ${index}`,
    });
  return parseHarness(value);
}

describe('work per skill is linear', () => {
  const harness = manySkills();

  it(`the name guard accepts ${skillCount} new names in seconds`, { timeout: 30_000 }, () => {
    const accept = createNameGuard(harness, { freed: harness.skills.items.map((skill) => skill.id) });
    let accepted = 0;
    for (let index = 0; index < skillCount; index++) if (accept(`renamed skill ${index}`)) accepted++;
    // A name that holds an accepted one as a whole word, or is held by one, is still refused.
    expect(accept('renamed skill 7 plus')).toBe(false);
    expect(accept('skill 7')).toBe(false);
    expect(accepted).toBe(skillCount);
  });

  it(`preambles for ${skillCount} skills in seconds`, { timeout: 60_000 }, async () => {
    const result = await applyOperator(addPreamble, harness, { rng: 'many', severity: 1 });
    expect('harness' in result).toBe(true);
  });
});
