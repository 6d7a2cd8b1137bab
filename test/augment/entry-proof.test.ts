// A pool entry's proof: rows drawn from an entry take the content and name checks of the parts they hold as
// the entry does from its proof, and the certificate says which checks were proven at the entry and which
// ran for the row. The verdicts are those of a certificate made without any proof, and a proof never
// answers for a part (or renames) it was not made of.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { augment } from '../../src/augment/augment.js';
import { certify } from '../../src/augment/certificate.js';
import { checkContentPreservation } from '../../src/augment/content-preservation.js';
import { checksByProof, proveEntry } from '../../src/augment/entry-proof.js';
import { checkNewNames } from '../../src/augment/name-meaning.js';
import { applyOperator } from '../../src/augment/operator.js';
import { compilePolicy, parsePolicy } from '../../src/augment/policy.js';
import { presets } from '../../src/augment/presets.js';
import { createRegistry } from '../../src/augment/registry.js';
import { loadHarnessFile, parseHarness } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { composeRelabels, forwardTrajectory } from '../../src/trajectory/relabel.js';
import type { Trajectory } from '../../src/trajectory/schema.js';

const registry = createRegistry(builtinOperators);
/** The fixture's trajectories (each line a trajectory under the base harness). */
const readTrajectories = async (file: string): Promise<Trajectory[]> =>
  (await readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Trajectory);
const operator = (id: string) => {
  const found = registry.get(id);
  if (!found) throw new Error(`no operator ${id}`);
  return found;
};

describe('entry proofs', () => {
  it('certify pool rows as a certificate without a proof does, and say where each check ran', async () => {
    const base = await loadHarnessFile('fixtures/livestream/harness.yaml');
    const trajectories = (await readTrajectories('fixtures/livestream/trajectories.jsonl')).slice(0, 12);
    // Half the variants take a hooks step only an example can take (`hooks/disable-untriggered` skips
    // without one), so some rows prove parts for themselves.
    const policy = structuredClone(presets.hat) as { dimensions: Record<string, unknown> };
    policy.dimensions.hooks = { probability: 0.5, operators: ['hooks/disable-untriggered'] };
    const plan = compilePolicy(parsePolicy(policy), registry);
    let proven = 0;
    let perRowParts = 0;
    for await (const row of augment(base, trajectories, {
      plan,
      variants: 4,
      seed: 11,
      pool: { size: 16 },
    })) {
      const proof = row.certificate.proof;
      expect(proof?.entry).toBe(row.provenance.pool?.seed);
      if (!proof) continue;
      const original = trajectories.find((trajectory) => trajectory.id === row.exampleId);
      if (!original) throw new Error('row without its example');
      const alone = certify({
        base,
        variant: row.harness,
        original,
        rewritten: row.trajectory,
        relabel: row.relabel,
      });
      const { proof: _where, ...verdict } = row.certificate;
      expect(verdict).toEqual(alone);
      // Every part the variant changed, and the names, are answered once: at the entry or for the row.
      const changed = (['skills', 'hooks', 'prompt', 'tools'] as const)
        .filter((part) => row.harness[part] !== base[part])
        .map((part) => `content.${part}`);
      const answered = [...proof.atEntry, ...proof.perRow.filter((check) => check.startsWith('content.'))];
      expect(answered.filter((check) => check.startsWith('content.')).sort()).toEqual([...changed].sort());
      expect([...proof.atEntry, ...proof.perRow].filter((check) => check === 'names')).toHaveLength(1);
      // The walk's two checks are told from the original's walk under the base (the entry's walk proof) or
      // made for the row, together; the inverse always for the row.
      const walk = ['validUnderVariant', 'hooksAgree'];
      const walkAt = walk.every((check) => proof.atEntry.includes(check)) ? proof.atEntry : proof.perRow;
      expect(walkAt.slice(0, 2)).toEqual(walk);
      expect(proof.perRow).toContain('inverseExact');
      if (proof.atEntry.some((check) => check.startsWith('content.'))) proven++;
      perRowParts += proof.perRow.filter((check) => check.startsWith('content.') || check === 'names').length;
    }
    // The fixture's plan gives both kinds: parts proven at the entry, parts an example's own steps changed.
    expect(proven).toBeGreaterThan(0);
    expect(perRowParts).toBeGreaterThan(0);
  });

  it('answers for no part the row does not hold as the entry does', async () => {
    const base = await loadHarnessFile('fixtures/livestream/harness.yaml');
    const renamed = await applyOperator(operator('tools/rename'), base, { rng: 'proof', severity: 1 });
    if ('skip' in renamed) throw new Error(renamed.skip);
    const reworded = await applyOperator(operator('skill-content/paraphrase-lexicon'), renamed.harness, {
      rng: 'proof',
      severity: 1,
    });
    if ('skip' in reworded) throw new Error(reworded.skip);
    const entry = reworded.harness;
    const relabel = composeRelabels(renamed.relabel, reworded.relabel);
    const proof = proveEntry('test/pool/0', base, entry, relabel);
    expect(proof.parts.get('skills')?.issues).toEqual([]);

    // A row whose skills are another object that lost a number of the base: checked for the row, and caught.
    const numbered = base.skills.items.findIndex((skill) => /\d/u.test(skill.body));
    expect(numbered).toBeGreaterThanOrEqual(0);
    const tampered: Harness = {
      ...entry,
      skills: {
        ...entry.skills,
        items: entry.skills.items.map((skill, index) =>
          index === numbered ? { ...skill, body: skill.body.replace(/\d+/gu, '999999') } : skill,
        ),
      },
    };
    const checked = checksByProof(proof, base, tampered, relabel);
    expect(checked.perRow).toContain('content.skills');
    expect(checked.atEntry).not.toContain('content.skills');
    expect(checked.perRow).toContain('names');
    expect(checked.content.kept).toBe(false);
    expect(checked.content).toEqual(checkContentPreservation(base, tampered, relabel));

    // A row that renames more than the entry: neither its tools nor its names are the entry's.
    const more = await applyOperator(operator('tools/rename'), entry, { rng: 'more', severity: 1 });
    if ('skip' in more) throw new Error(more.skip);
    const moreRelabel = composeRelabels(relabel, more.relabel);
    const renamedMore = checksByProof(proof, base, more.harness, moreRelabel);
    expect(renamedMore.atEntry).not.toContain('content.tools');
    expect(renamedMore.atEntry).not.toContain('names');
    expect(renamedMore.names).toEqual(checkNewNames(base, more.harness, moreRelabel));

    // A row that dropped a tool holds the entry's skills object, but reads it with other identifiers (a
    // mention of the dropped tool is plain text now): checked for the row.
    const dropped: Harness = { ...entry, tools: { ...entry.tools, items: entry.tools.items.slice(1) } };
    const withoutTool = checksByProof(proof, base, dropped, relabel);
    expect(withoutTool.perRow).toEqual(expect.arrayContaining(['content.skills', 'content.tools', 'names']));
    expect(withoutTool.atEntry).toEqual([]);
    expect(withoutTool.content).toEqual(checkContentPreservation(base, dropped, relabel));

    // The entry itself: every part it changed and its names come from the proof.
    const itself = checksByProof(proof, base, entry, relabel);
    expect(itself.perRow).toEqual([]);
    const changed = (['skills', 'hooks', 'prompt', 'tools'] as const).filter(
      (part) => entry[part] !== base[part],
    );
    expect(changed).toContain('skills');
    expect(itself.atEntry).toEqual([...changed.map((part) => `content.${part}`), 'names']);
  });

  it('refuses a proof made for another base harness', async () => {
    const base = await loadHarnessFile('fixtures/livestream/harness.yaml');
    const other = parseHarness(structuredClone(base));
    const proof = proveEntry('test/pool/1', base, base, { steps: [] });
    expect(() => checksByProof(proof, other, other, { steps: [] })).toThrow(/another base harness/);
    const trajectory = (await readTrajectories('fixtures/livestream/trajectories.jsonl'))[0];
    if (!trajectory) throw new Error('no trajectory');
    const moved = forwardTrajectory(trajectory, { steps: [] }, other);
    expect(() =>
      certify({
        base: other,
        variant: other,
        original: trajectory,
        rewritten: moved.trajectory,
        relabel: { steps: [] },
        proof,
      }),
    ).toThrow(/another base harness/);
  });
});
