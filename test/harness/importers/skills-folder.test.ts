// Agent Skills folders modelled on public skill repositories: one invalid skill is reported with file,
// line and reason and the others import (`--skip-invalid`); front-matter fields and bundled files
// (scripts/, reference docs, assets) round-trip byte for byte through a harness file and back.
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import {
  loadSkillsFolder,
  readSkillsFolder,
  writeSkillsFolder,
} from '../../../src/harness/importers/index.js';
import { loadHarnessFile } from '../../../src/harness/parse-harness.js';
import { hsa } from '../../support/run-hsa.js';

const source = 'fixtures/importers/skills-public';
const valid = ['pdf-tools', 'skill-creator'];

/** Every file under a folder, by relative path. */
function filesUnder(folder: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(folder, path), readFileSync(path));
    }
  };
  walk(folder);
  return files;
}
const frontMatterOf = (text: string) => YAML.parse(text.split(/^---$/mu)[1] as string);
const bodyOf = (text: string) => text.split(/^---$/mu).slice(2).join('---').trim();

describe('reading a folder of Agent Skills', () => {
  it('reports the invalid skill with file, line and reason, and reads the others', async () => {
    const folder = await readSkillsFolder(source);
    expect(folder.skills.map((skill) => skill.id)).toEqual(valid);
    expect(folder.skipped).toEqual([join(source, 'brand-guidelines', 'SKILL.md')]);
    expect(folder.issues).toEqual([
      expect.objectContaining({
        code: 'description_too_long',
        file: join(source, 'brand-guidelines', 'SKILL.md'),
        line: 3,
        path: ['description'],
      }),
    ]);
    await expect(loadSkillsFolder(source)).rejects.toThrow(/invalid skills: 1 issue/u);
    const seen: string[] = [];
    const skills = await loadSkillsFolder(source, {
      skipInvalid: true,
      onIssue: (issue) => seen.push(issue.code),
    });
    expect(skills).toHaveLength(2);
    expect(seen).toEqual(['description_too_long']);
  });

  it('keeps every front-matter field and the bundled files', async () => {
    const [pdf, creator] = (await readSkillsFolder(source)).skills;
    expect(pdf?.frontMatter).toEqual({
      license: 'Apache-2.0. LICENSE.txt has the complete terms',
      'allowed-tools': 'Bash(python:*) Read Write',
      metadata: { author: 'example-org', version: '2.1' },
    });
    expect(pdf?.files?.map((file) => `${file.path}:${file.encoding}`)).toEqual([
      'LICENSE.txt:utf8',
      'reference/forms.md:utf8',
      'scripts/fill_form.py:utf8',
    ]);
    expect(creator?.frontMatter).toEqual({
      license: 'Complete terms in LICENSE.txt',
      compatibility: 'Needs Python 3.10+ and write access to the skills directory',
    });
    expect(creator?.files?.find((file) => file.path === 'assets/icon.png')?.encoding).toBe('base64');
  });
});

describe('hsa import skills → hsa export skills', () => {
  const folder = mkdtempSync(join(tmpdir(), 'hsa-skills-'));
  const harnessFile = join(folder, 'harness.yaml');
  const exported = join(folder, 'exported');

  it('imports with --skip-invalid, reporting the bad skill on standard error', async () => {
    const refused = await hsa(['import', 'skills', source, '-o', join(folder, 'refused.yaml')]);
    expect(refused.status).toBe(1);
    expect(existsSync(join(folder, 'refused.yaml'))).toBe(false);
    const run = await hsa(['import', 'skills', source, '--skip-invalid', '-o', harnessFile]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      `${join(source, 'brand-guidelines', 'SKILL.md')}:3 $.description: description has`,
    );
    expect(run.stderr).toContain('[description_too_long]');
    expect(run.stderr).toContain('imported 2 skills, left out 1');
  });

  it('round-trips every front-matter field and bundled file byte for byte', async () => {
    expect((await loadHarnessFile(harnessFile)).skills.items.map((skill) => skill.id)).toEqual(valid);
    const run = await hsa(['export', 'skills', harnessFile, '-o', exported]);
    expect(run.status).toBe(0);
    for (const name of valid) {
      const before = filesUnder(join(source, name));
      const after = filesUnder(join(exported, name));
      expect([...after.keys()]).toEqual([...before.keys()]);
      for (const [path, bytes] of before) {
        if (path === 'SKILL.md') continue;
        expect(after.get(path)?.equals(bytes), `${name}/${path}`).toBe(true);
      }
      const original = (before.get('SKILL.md') as Buffer).toString('utf8');
      const written = (after.get('SKILL.md') as Buffer).toString('utf8');
      expect(frontMatterOf(written)).toEqual(frontMatterOf(original));
      expect(bodyOf(written)).toBe(bodyOf(original));
    }
    // And once more through the API: the written folder reads back as the same skills.
    const again = await readSkillsFolder(exported);
    expect(again.issues).toEqual([]);
    expect(again.skills).toEqual((await readSkillsFolder(source)).skills);
    await writeSkillsFolder(again.skills, join(folder, 'second'));
    expect(filesUnder(join(folder, 'second'))).toEqual(filesUnder(exported));
  });
});
