// Flat rule files (`<name>.md` / `.mdc` with front matter) read as skills, on OpenHands' own skills folder:
// the id from `name` or the file's stem, a description from `triggers` or `globs` where the file has none,
// every other front-matter field kept for export, and the Markdown files that are not skills left aside.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { readSkillsFolder, writeSkillsFolder } from '../../../src/harness/importers/index.js';
import { readRuleFile } from '../../../src/harness/importers/rule-files.js';

const source = 'fixtures/importers/rules-public';
const bodyOf = (file: string) =>
  readFileSync(join(source, file), 'utf8')
    .split(/^---$/mu)
    .slice(2)
    .join('---')
    .replace(/^\n\n?/u, '')
    .replace(/\n$/u, '');

describe('a folder of OpenHands microagents', () => {
  it('reads each rule file as a skill, in file-name order', async () => {
    const folder = await readSkillsFolder(source);
    expect(folder.issues).toEqual([]);
    expect(folder.skills.map((skill) => skill.id)).toEqual([
      'add_agent',
      'code-review',
      'github',
      'npm',
      'SSH Microagent',
    ]);
    const github = folder.skills.find((skill) => skill.id === 'github');
    expect(github).toEqual({
      id: 'github',
      kind: 'reply',
      description: 'Load when a message mentions "github" or "git".',
      body: bodyOf('github.md'),
      frontMatter: {
        type: 'knowledge',
        version: '1.0.0',
        agent: 'CodeActAgent',
        triggers: ['github', 'git'],
      },
    });
    // No `name`: the id is the file's stem; its only trigger is a slash command.
    expect(folder.skills.find((skill) => skill.id === 'code-review')?.description).toBe(
      'Load when a message mentions "/codereview".',
    );
    expect(folder.described.map((entry) => entry.file)).toEqual(
      ['add_agent.md', 'code-review.md', 'github.md', 'npm.md', 'ssh.md'].map((file) => join(source, file)),
    );
  });

  it('leaves aside the README and the file that only configures MCP servers, and says why', async () => {
    const folder = await readSkillsFolder(source);
    expect(folder.leftAside).toEqual([
      { file: join(source, 'README.md'), reason: 'no front matter' },
      { file: join(source, 'default-tools.md'), reason: 'no body' },
    ]);
    expect(folder.skipped).toEqual([]);
  });

  it('exports as Agent Skills that keep the triggers and read back the same', async () => {
    const { skills } = await readSkillsFolder(source);
    const out = mkdtempSync(join(tmpdir(), 'hsa-rules-'));
    await writeSkillsFolder(skills, out);
    const ssh = readFileSync(join(out, 'ssh-microagent', 'SKILL.md'), 'utf8');
    const front = YAML.parse(ssh.split(/^---$/mu)[1] as string);
    expect(front).toMatchObject({
      name: 'ssh-microagent',
      triggers: [
        'ssh',
        'remote server',
        'remote machine',
        'remote host',
        'remote connection',
        'secure shell',
        'ssh keys',
      ],
      metadata: { 'hsa-id': 'SSH Microagent' },
    });
    expect((await readSkillsFolder(out)).skills).toEqual(skills);
  });
});

describe('readRuleFile', () => {
  it('describes a Cursor rule from its globs, and prefers a description of its own', () => {
    const globbed = readRuleFile(
      '---\nglobs: "src/**/*.ts,test/**/*.ts"\nalwaysApply: false\n---\n\nUse named exports.\n',
      'rules/typescript.mdc',
      'typescript',
    );
    expect(globbed.result).toEqual({
      success: true,
      data: {
        id: 'typescript',
        kind: 'reply',
        description: 'Load when working on files matching "src/**/*.ts" or "test/**/*.ts".',
        body: 'Use named exports.',
        frontMatter: { globs: 'src/**/*.ts,test/**/*.ts', alwaysApply: false },
      },
    });
    expect(globbed.describedFrom).toBe('globs');
    const own = readRuleFile(
      '---\ndescription: TypeScript style\nglobs: ["*.ts"]\n---\nUse named exports.\n',
      'rules/ts.mdc',
      'ts',
    );
    expect(own.result.success && own.result.data.description).toBe('TypeScript style');
    expect(own.describedFrom).toBe('description');
  });

  it('names the file, line and field of what it cannot read', () => {
    const nothing = readRuleFile('---\ntype: knowledge\n---\n\nRules.\n', 'rules/a.md', 'a');
    expect(nothing.result).toEqual({
      success: false,
      issues: [
        expect.objectContaining({ code: 'missing_description', file: 'rules/a.md', path: ['description'] }),
      ],
    });
    const badName = readRuleFile('---\nname: [1]\ntriggers: [x]\n---\nRules.\n', 'rules/b.md', 'b');
    expect(badName.result).toEqual({
      success: false,
      issues: [expect.objectContaining({ code: 'invalid_type', path: ['name'], line: 2 })],
    });
    const badTriggers = readRuleFile('---\ntriggers: [1, 2]\n---\nRules.\n', 'rules/c.md', 'c');
    expect(badTriggers.result.success).toBe(false);
  });
});

describe('a folder of SKILL.md folders and rule files', () => {
  it('refuses an id given twice, naming the first file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hsa-rules-'));
    mkdirSync(join(dir, 'github'));
    writeFileSync(
      join(dir, 'github', 'SKILL.md'),
      '---\nname: github\ndescription: GitHub API\n---\n\nUse the API.\n',
    );
    writeFileSync(join(dir, 'github.md'), '---\ntriggers: [git]\n---\n\nUse git.\n');
    const folder = await readSkillsFolder(dir);
    expect(folder.skills.map((skill) => skill.id)).toEqual(['github']);
    expect(folder.issues).toEqual([
      expect.objectContaining({
        code: 'duplicate_id',
        file: join(dir, 'github.md'),
        message: `skill id "github" is already used by ${join(dir, 'github', 'SKILL.md')}`,
      }),
    ]);
  });
});
