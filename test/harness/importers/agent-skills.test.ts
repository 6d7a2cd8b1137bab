import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  loadSkillsFolder,
  parseSkillMarkdown,
  renderSkillMarkdown,
  safeParseSkillMarkdown,
  skeletonHarness,
  skillName,
  writeSkillsFolder,
} from '../../../src/harness/importers/index.js';
import { formatIssue, HarnessAugmentError, type Issue } from '../../../src/harness/issues.js';
import { HarnessSchema, type Skill } from '../../../src/harness/schema.js';

const skillsFolder = fileURLToPath(new URL('../../../fixtures/importers/skills', import.meta.url));

function issuesOf(text: string, source?: string): Issue[] {
  const result = safeParseSkillMarkdown(text, source);
  if (result.success) throw new Error('expected issues');
  return result.issues;
}

async function thrownIssues(run: () => Promise<unknown>): Promise<Issue[]> {
  try {
    await run();
  } catch (error) {
    if (HarnessAugmentError.isInstance(error)) return error.issues;
    throw error;
  }
  throw new Error('expected a HarnessAugmentError');
}

const shape = (issues: Issue[]) => issues.map(({ code, path, line }) => ({ code, path, line }));

describe('parseSkillMarkdown', () => {
  it('reads id, kind and risk from metadata and keeps the body exactly', async () => {
    const file = join(skillsFolder, 'item-qa', 'SKILL.md');
    const skill = parseSkillMarkdown(await readFile(file, 'utf8'), file);
    expect(skill).toStrictEqual({
      id: 'item_qa',
      kind: 'reply',
      description:
        "Answer a viewer's question about one product in the live room (price, size, material, stock). Use when the viewer names a link number or a product on screen.",
      body: expect.stringMatching(/^# Product questions\n\n1\. Look the product up/),
      risk: 'medium',
      // Every other front-matter field is kept for export; the hsa- metadata keys are read, not kept.
      frontMatter: {
        license: 'Apache-2.0',
        'allowed-tools': 'get_product_info_by_link_id check_stock',
        metadata: { author: 'livestream-ops', version: '1.2' },
      },
    });
    expect(skill.body.endsWith('if the field is silent, say you will check.')).toBe(true);
  });

  it('uses the name as id and reply as kind when metadata says nothing', () => {
    expect(
      parseSkillMarkdown(
        '---\nname: item-qa\ndescription: Product questions\n---\n\nQuote the final price.\n',
      ),
    ).toStrictEqual({
      id: 'item-qa',
      kind: 'reply',
      description: 'Product questions',
      body: 'Quote the final price.',
    });
  });

  it('reads CRLF files, a byte-order mark and a body without a blank line before it', () => {
    const lf = '---\nname: a\ndescription: d\n---\n\nline 1\nline 2\n';
    expect(parseSkillMarkdown(`\uFEFF${lf.replaceAll('\n', '\r\n')}`).body).toBe('line 1\r\nline 2');
    expect(parseSkillMarkdown('---\nname: a\ndescription: d\n---\nbody\n').body).toBe('body');
  });

  it('keeps a body that holds --- lines', () => {
    const skill: Skill = { id: 'a', kind: 'reply', description: 'd', body: '---\nnot front matter\n---' };
    expect(parseSkillMarkdown(renderSkillMarkdown(skill))).toStrictEqual(skill);
  });
});

describe('renderSkillMarkdown', () => {
  it('writes the name in the Agent Skills format and the exact id in metadata', () => {
    expect(
      renderSkillMarkdown({
        id: 'item_qa',
        kind: 'reply',
        description: 'Product questions',
        body: 'Quote the final price.',
      }),
    ).toBe(
      '---\nname: item-qa\ndescription: Product questions\nmetadata:\n  hsa-id: item_qa\n---\n\nQuote the final price.\n',
    );
  });

  it('writes kind and risk, and no metadata when none is needed', () => {
    expect(
      renderSkillMarkdown({
        id: 'price-objection',
        kind: 'strategy',
        description: 'Plan',
        body: 'Body',
        risk: 'high',
      }),
    ).toBe(
      '---\nname: price-objection\ndescription: Plan\nmetadata:\n  hsa-kind: strategy\n  hsa-risk: high\n---\n\nBody\n',
    );
    expect(renderSkillMarkdown({ id: 'plain', kind: 'reply', description: 'd', body: 'b' })).toBe(
      '---\nname: plain\ndescription: d\n---\n\nb\n',
    );
  });

  it('round-trips every fixture skill exactly', async () => {
    for (const skill of await loadSkillsFolder(skillsFolder)) {
      expect(parseSkillMarkdown(renderSkillMarkdown(skill))).toStrictEqual(skill);
    }
  });

  it('refuses an invalid skill and a description longer than the format allows', () => {
    const run = (skill: Skill) => {
      try {
        renderSkillMarkdown(skill);
      } catch (error) {
        if (HarnessAugmentError.isInstance(error)) return shape(error.issues);
      }
      throw new Error('expected a HarnessAugmentError');
    };
    expect(run({ id: 'a', kind: 'reply', description: 'd', body: '' })).toEqual([
      { code: 'too_small', path: ['body'], line: undefined },
    ]);
    expect(run({ id: 'a', kind: 'reply', description: 'x'.repeat(1025), body: 'b' })).toEqual([
      { code: 'description_too_long', path: ['description'], line: undefined },
    ]);
  });
});

describe('skillName', () => {
  it('maps ids to the Agent Skills name format', () => {
    expect(skillName('item_qa')).toBe('item-qa');
    expect(skillName('Item__QA v2')).toBe('item-qa-v2');
    expect(skillName('_x_')).toBe('x');
    expect(skillName('a'.repeat(70))).toBe('a'.repeat(64));
    expect(skillName('商品问答')).toMatch(/^skill-[0-9a-f]{8}$/);
    expect(skillName('商品问答')).toBe(skillName('商品问答'));
    expect(skillName('商品问答')).not.toBe(skillName('优惠规则'));
  });
});

describe('loadSkillsFolder', () => {
  it('reads the fixture skills in folder order', async () => {
    const skills = await loadSkillsFolder(skillsFolder);
    expect(skills.map((skill) => [skill.id, skill.kind, skill.risk])).toEqual([
      ['item_qa', 'reply', 'medium'],
      ['price-objection', 'strategy', 'medium'],
      ['promo_rules', 'reply', 'high'],
      ['shipping-questions', 'reply', undefined],
    ]);
    const promo = skills.find((skill) => skill.id === 'promo_rules');
    expect(promo?.description).toMatch(/^解答直播间优惠券/);
    expect(promo?.body).toMatch(/^# 优惠规则\n/);
    expect(promo?.body).toContain('禁止使用"全网最低"');
  });

  it('builds a valid skeleton harness', async () => {
    const harness = skeletonHarness({ id: 'live-room', skills: await loadSkillsFolder(skillsFolder) });
    expect(HarnessSchema.parse(harness)).toStrictEqual(harness);
  });
});

describe('skills folders on disk', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hsa-skills-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes <dir>/<name>/SKILL.md and reads the same skills back', async () => {
    const skills = await loadSkillsFolder(skillsFolder);
    const files = await writeSkillsFolder(skills, dir);
    expect(files).toEqual(
      ['item-qa', 'price-objection', 'promo-rules', 'shipping-questions'].map((name) =>
        join(dir, name, 'SKILL.md'),
      ),
    );
    expect(await loadSkillsFolder(dir)).toStrictEqual(skills);
  });

  it('gives skills whose names collide distinct folders and keeps their ids', async () => {
    const skills: Skill[] = [
      { id: 'a_b', kind: 'reply', description: 'first', body: 'one' },
      { id: 'a-b', kind: 'strategy', description: 'second', body: 'two' },
      { id: '商品问答', kind: 'reply', description: '第三', body: '三' },
    ];
    const files = await writeSkillsFolder(skills, dir);
    expect(files.slice(0, 2)).toEqual([join(dir, 'a-b', 'SKILL.md'), join(dir, 'a-b-2', 'SKILL.md')]);
    const loaded = await loadSkillsFolder(dir);
    expect([...loaded].sort((x, y) => (x.id < y.id ? -1 : 1))).toStrictEqual(
      [...skills].sort((x, y) => (x.id < y.id ? -1 : 1)),
    );
  });

  it('refuses to write duplicate ids', async () => {
    const skill: Skill = { id: 'a', kind: 'reply', description: 'd', body: 'b' };
    expect(shape(await thrownIssues(() => writeSkillsFolder([skill, skill], dir)))).toEqual([
      { code: 'duplicate_id', path: [1, 'id'], line: undefined },
    ]);
  });

  it('skips folders without a SKILL.md and reports every broken file', async () => {
    const put = async (folder: string, text: string) => {
      await mkdir(join(dir, folder), { recursive: true });
      await writeFile(join(dir, folder, 'SKILL.md'), text);
    };
    await mkdir(join(dir, 'assets'));
    await put('good', '---\nname: good\ndescription: d\n---\n\nbody\n');
    await put('moved', '---\nname: elsewhere\ndescription: d\n---\n\nbody\n');
    await put('broken', '---\nname: broken\ndescription: [unclosed\n---\n\nbody\n');
    await put('twin', '---\nname: twin\ndescription: d\nmetadata:\n  hsa-id: good\n---\n\nbody\n');
    const issues = await thrownIssues(() => loadSkillsFolder(dir));
    expect(issues.map(({ code, path, file, line }) => ({ code, path, file, line }))).toEqual([
      { code: 'invalid_front_matter', path: [], file: join(dir, 'broken', 'SKILL.md'), line: 3 },
      { code: 'name_mismatch', path: ['name'], file: join(dir, 'moved', 'SKILL.md'), line: 2 },
      { code: 'duplicate_id', path: ['metadata', 'hsa-id'], file: join(dir, 'twin', 'SKILL.md'), line: 5 },
    ]);
  });

  it('refuses a folder that does not exist as a usage error', async () => {
    try {
      await loadSkillsFolder(join(dir, 'missing'));
      expect.unreachable();
    } catch (error) {
      expect(HarnessAugmentError.isInstance(error) && error.kind).toBe('usage');
    }
  });
});

describe('parseSkillMarkdown on bad input', () => {
  const file = 'skills/item-qa/SKILL.md';

  it('names a missing or unclosed front matter', () => {
    expect(shape(issuesOf('# Just Markdown\n', file))).toEqual([
      { code: 'missing_front_matter', path: [], line: 1 },
    ]);
    expect(shape(issuesOf('---\nname: a\ndescription: d\n\nbody\n', file))).toEqual([
      { code: 'unclosed_front_matter', path: [], line: 1 },
    ]);
    expect(issuesOf('# Just Markdown\n', file)[0]?.file).toBe(file);
  });

  it('names broken YAML with its line', () => {
    const issues = issuesOf('---\nname: a\ndescription: "unterminated\n---\n\nbody\n', file);
    expect(issues.map(({ code, file }) => ({ code, file }))).toEqual([
      { code: 'invalid_front_matter', file },
    ]);
    expect(issues[0]?.line).toBe(3);
    expect(shape(issuesOf('---\n- a\n- b\n---\n\nbody\n'))).toEqual([
      { code: 'invalid_front_matter', path: [], line: 1 },
    ]);
    expect(shape(issuesOf('---\nname: a\nname: b\ndescription: d\n---\n\nbody\n'))[0]?.code).toBe(
      'invalid_front_matter',
    );
  });

  it('names each missing or malformed field with its path and line', () => {
    const text = [
      '---',
      'name: Item_QA',
      'description: 42',
      'metadata:',
      '  hsa-kind: rule',
      '  hsa-risk: extreme',
      '---',
      '',
      'body',
    ].join('\n');
    expect(shape(issuesOf(text, file))).toEqual([
      { code: 'invalid_skill_name', path: ['name'], line: 2 },
      { code: 'invalid_type', path: ['description'], line: 3 },
      { code: 'invalid_skill_kind', path: ['metadata', 'hsa-kind'], line: 5 },
      { code: 'invalid_skill_risk', path: ['metadata', 'hsa-risk'], line: 6 },
    ]);
    expect(formatIssue(issuesOf(text, file)[2] as Issue)).toBe(
      `${file}:5 $.metadata["hsa-kind"]: hsa-kind must be one of "reply", "strategy", not "rule" [invalid_skill_kind]`,
    );
  });

  it('names a missing name, description and body', () => {
    expect(shape(issuesOf('---\nlicense: MIT\n---\n\n'))).toEqual([
      { code: 'missing_name', path: ['name'], line: 2 },
      { code: 'missing_description', path: ['description'], line: 2 },
      { code: 'missing_body', path: ['body'], line: 3 },
    ]);
  });

  it('points an invalid hsa-id at metadata', () => {
    expect(
      shape(issuesOf('---\nname: a\ndescription: d\nmetadata:\n  hsa-id: " padded"\n---\n\nbody\n')),
    ).toEqual([{ code: 'invalid_format', path: ['metadata', 'hsa-id'], line: 5 }]);
  });

  it('throws a HarnessAugmentError that names the file', () => {
    try {
      parseSkillMarkdown('no front matter', file);
      expect.unreachable();
    } catch (error) {
      expect(HarnessAugmentError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain(file);
    }
  });
});
