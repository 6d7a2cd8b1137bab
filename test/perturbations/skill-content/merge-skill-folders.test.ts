// skill-content/merge on Agent Skills folders (the public-shaped fixtures/importers/skills-public): the merged
// skill keeps both skills' bundled files and front matter, so a procedure that runs `scripts/fill_form.py` or
// reads `reference/forms.md` still finds them, and the inverse is exact; a pair whose front matter or files
// conflict (two licenses, two `allowed-tools`, one path with different bytes) is not merged.
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeSkills } from '../../../perturbations/skill-content/merge.js';
import { certify } from '../../../src/augment/certificate.js';
import { type AppliedOperator, applyOperator, type OperatorSkip } from '../../../src/augment/operator.js';
import { loadSkillsFolder } from '../../../src/harness/importers/agent-skills.js';
import { toChatCompletionTools } from '../../../src/harness/offered-tools.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { renderSystemPrompt } from '../../../src/harness/render-prompt.js';
import type { Harness, Skill } from '../../../src/harness/schema.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { forwardTrajectory, inverseTrajectory } from '../../../src/trajectory/relabel.js';
import type { Trajectory } from '../../../src/trajectory/schema.js';
import { rederiveTrajectory } from '../../../src/trajectory/validate-trajectory.js';
import { projectRoot } from '../../support/run-cli.js';
import {
  baggageTrajectory,
  call,
  result,
  travelContext,
  travelHarnessInput,
} from '../../support/travel-harness.js';

const publicFolder = join(projectRoot, 'fixtures/importers/skills-public');
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const applied = (output: AppliedOperator | OperatorSkip): AppliedOperator => {
  if ('skip' in output) throw new Error(`skipped: ${output.skip}`);
  return output;
};

/**
 * The public pdf-tools and skill-creator folders copied into a temp dir, then `edit`ed there, and loaded.
 * As published, their licenses differ (and only pdf-tools bundles LICENSE.txt).
 */
async function publicSkills(edit: (folder: string) => void = () => {}): Promise<Skill[]> {
  const folder = mkdtempSync(join(tmpdir(), 'hsa-merge-skills-'));
  folders.push(folder);
  for (const name of ['pdf-tools', 'skill-creator'])
    cpSync(join(publicFolder, name), join(folder, name), { recursive: true });
  edit(folder);
  return loadSkillsFolder(folder);
}

/** Gives skill-creator pdf-tools' license line and the same LICENSE.txt: the two now share a license. */
function shareLicense(folder: string): void {
  const skillMd = join(folder, 'skill-creator', 'SKILL.md');
  writeFileSync(
    skillMd,
    readFileSync(skillMd, 'utf8').replace(
      'license: Complete terms in LICENSE.txt',
      'license: Apache-2.0. LICENSE.txt has the complete terms',
    ),
  );
  cpSync(join(folder, 'pdf-tools', 'LICENSE.txt'), join(folder, 'skill-creator', 'LICENSE.txt'));
}

/**
 * `shareLicense`, and each skill also sets what governs the other (`allowed-tools`, `compatibility`), alike:
 * only then may one front matter stand for both procedures.
 */
function shareLicenseAndNeeds(folder: string): void {
  shareLicense(folder);
  const governing = [
    'allowed-tools: Bash(python:*) Read Write',
    'compatibility: Needs Python 3.10+ and write access to the skills directory',
  ];
  for (const [name, missing] of [
    ['pdf-tools', governing[1]],
    ['skill-creator', governing[0]],
  ] as const) {
    const skillMd = join(folder, name, 'SKILL.md');
    const text = readFileSync(skillMd, 'utf8');
    const end = text.indexOf('\n---', 4);
    writeFileSync(skillMd, `${text.slice(0, end)}\n${missing}${text.slice(end)}`);
  }
}

/** The travel harness with these skills as its reply skills (apology_first stays, the only strategy). */
function harnessWith(skills: Skill[]): Harness {
  const input = travelHarnessInput();
  input.skills.items = [...skills, input.skills.items[2]!];
  return parseHarness(input);
}

/** Two user turns: the first loads pdf-tools, the second skill-creator. */
function skillsTrajectory(harness: Harness): Trajectory {
  const draft: Trajectory = {
    id: 'pdf-then-skill',
    harness: { id: harness.id },
    context: travelContext,
    tools: toChatCompletionTools(harness),
    messages: [
      { role: 'system', content: renderSystemPrompt(harness, travelContext) },
      { role: 'user', content: 'Please fill in the attached claim form.' },
      call('load_skill', { skill_id: 'pdf-tools' }, 'p1'),
      result('p1', ''),
      { role: 'assistant', content: 'The form is filled; I wrote it to a new file.' },
      { role: 'user', content: 'Can we turn this into a reusable workflow?' },
      call('load_skill', { skill_id: 'skill-creator' }, 's1'),
      result('s1', ''),
      { role: 'assistant', content: 'I created a new skill from the template.' },
    ],
  };
  return rederiveTrajectory(draft, harness).trajectory;
}

describe('skill-content/merge keeps bundled files and front matter', () => {
  it('merges public skills that share their license and needs: the union of files and front matter, exact inverse', async () => {
    const skills = await publicSkills(shareLicenseAndNeeds);
    const [pdf, creator] = skills as [Skill, Skill];
    const harness = harnessWith(skills);
    const original = skillsTrajectory(harness);
    const output = applied(
      await applyOperator(mergeSkills, harness, { rng: 'public', severity: 1, trajectory: original }),
    );
    const merged = output.harness.skills.items[0]!;
    expect(merged.id).toBe('pdf-tools-skill-creator');
    expect(merged.body).toContain('python scripts/fill_form.py');
    expect(merged.body).toContain('scripts/init_skill.py');
    expect(merged.frontMatter).toEqual({
      license: 'Apache-2.0. LICENSE.txt has the complete terms',
      'allowed-tools': 'Bash(python:*) Read Write',
      metadata: { author: 'example-org', version: '2.1' },
      compatibility: 'Needs Python 3.10+ and write access to the skills directory',
    });
    // Every bundled file of both, byte for byte; the LICENSE.txt both hold alike, once.
    expect(merged.files?.map((file) => file.path)).toEqual([
      'LICENSE.txt',
      'reference/forms.md',
      'scripts/fill_form.py',
      'assets/icon.png',
      'references/output-patterns.md',
      'scripts/init_skill.py',
    ]);
    for (const file of [...(pdf.files ?? []), ...(creator.files ?? [])])
      expect(merged.files).toContainEqual(file);
    expect(merged.files?.find((file) => file.path === 'assets/icon.png')?.encoding).toBe('base64');

    expect(output.relabel.steps).toEqual([
      expect.objectContaining({
        type: 'merge_skills',
        into: 'pdf-tools-skill-creator',
        sources: ['pdf-tools', 'skill-creator'],
        loads: ['pdf-tools', 'skill-creator'],
        loadTurns: [1, 2],
      }),
    ]);
    const moved = forwardTrajectory(original, output.relabel, output.harness).trajectory;
    const certificate = certify({
      base: harness,
      variant: output.harness,
      original,
      rewritten: moved,
      relabel: output.relabel,
    });
    expect(certificate.issues).toEqual([]);
    expect(certificate.certified).toBe(true);
    expect(inverseTrajectory(moved, output.relabel, harness).trajectory).toEqual(original);
    // The base harness keeps both skills as they were, files and front matter included.
    expect(harness.skills.items.slice(0, 2)).toEqual([pdf, creator]);
  });

  it('obeys the operator laws on the public skills', async () => {
    const harness = harnessWith(await publicSkills(shareLicenseAndNeeds));
    const report = await checkOperatorLaws(mergeSkills, {
      cases: [{ name: 'skills-public', harness, trajectories: [skillsTrajectory(harness)] }],
      randomCases: false,
      runs: 10,
    });
    expect(report.applied).toBeGreaterThan(0);
  });

  it('does not merge the public skills as published: their licenses differ', async () => {
    const harness = harnessWith(await publicSkills());
    expect(
      await applyOperator(mergeSkills, harness, {
        rng: 'public',
        severity: 1,
        trajectory: skillsTrajectory(harness),
      }),
    ).toEqual({
      skip: 'every same-kind pair bundles conflicting content, which one merged skill cannot keep: both set front matter `license` differently',
    });
  });

  it('does not merge when only one skill sets what governs it (allowed-tools, compatibility)', async () => {
    const harness = harnessWith(await publicSkills(shareLicense));
    expect(
      await applyOperator(mergeSkills, harness, { rng: 'x', trajectory: skillsTrajectory(harness) }),
    ).toEqual({
      skip: 'every same-kind pair bundles conflicting content, which one merged skill cannot keep: only one sets front matter `compatibility`, which governs it',
    });
  });

  it('does not merge two skills that bundle one path with different bytes', async () => {
    const harness = harnessWith(
      await publicSkills((folder) => {
        shareLicenseAndNeeds(folder);
        appendFileSync(join(folder, 'skill-creator', 'LICENSE.txt'), '\nAdditional terms apply.\n');
      }),
    );
    expect(
      await applyOperator(mergeSkills, harness, { rng: 'x', trajectory: skillsTrajectory(harness) }),
    ).toEqual({
      skip: 'every same-kind pair bundles conflicting content, which one merged skill cannot keep: both bundle `LICENSE.txt` with other bytes',
    });
  });

  it('does not merge a pair with two different allowed-tools, and picks another pair instead', async () => {
    const input = travelHarnessInput();
    input.skills.items[0]!.frontMatter = { 'allowed-tools': 'Bash(python:*) Read', license: 'MIT' };
    input.skills.items[1]!.frontMatter = { 'allowed-tools': 'Read Write', license: 'MIT' };
    const harness = parseHarness(input);
    const trajectory = baggageTrajectory(harness);
    expect(await applyOperator(mergeSkills, harness, { rng: 'x', severity: 1, trajectory })).toEqual({
      skip: 'every same-kind pair bundles conflicting content, which one merged skill cannot keep: both set front matter `allowed-tools` differently',
    });

    // Two more reply skills, each governed as one of the two: each conflicting skill merges with its like.
    const [rebooking, baggage] = input.skills.items;
    input.skills.items.push(
      { ...rebooking!, id: 'seat_change', frontMatter: { ...rebooking!.frontMatter, version: '2' } },
      { ...baggage!, id: 'pets', frontMatter: { ...baggage!.frontMatter } },
    );
    const four = parseHarness(input);
    const original = rederiveTrajectory(trajectory, four).trajectory;
    for (const rng of ['a', 'b', 'c', 'd', 'e']) {
      const output = applied(
        await applyOperator(mergeSkills, four, { rng, severity: 1, trajectory: original }),
      );
      for (const step of output.relabel.steps) {
        if (step.type !== 'merge_skills') continue;
        expect([...step.sources].sort()).not.toEqual(['baggage', 'rebooking']);
        const merged = output.harness.skills.items.find((skill) => skill.id === step.into)!;
        const sources = four.skills.items.filter((skill) => step.sources.includes(skill.id));
        expect(merged.frontMatter).toEqual(Object.assign({}, ...sources.map((skill) => skill.frontMatter)));
      }
      const moved = forwardTrajectory(original, output.relabel, output.harness).trajectory;
      expect(
        certify({ base: four, variant: output.harness, original, rewritten: moved, relabel: output.relabel })
          .issues,
      ).toEqual([]);
    }
  });
});
