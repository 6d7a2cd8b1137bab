// Links in a skills folder: a SKILL.md, a skill folder or a bundled file that links outside the imported
// folder is refused with the file and where the link leads (it would embed, say, /etc/passwd); links that
// stay inside are followed; a FIFO named SKILL.md is refused rather than read forever.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSkillsFolder } from '../../../src/harness/importers/index.js';
import { runCli } from '../../support/run-cli.js';

const skillText = (name: string) =>
  `---\nname: ${name}\ndescription: Does ${name} things.\n---\n\nBody of ${name}.\n`;

/** A temporary place with a skills folder `skills/` and a file outside it. */
function workspace() {
  const base = mkdtempSync(join(tmpdir(), 'hsa-skill-links-'));
  const skills = join(base, 'skills');
  mkdirSync(skills);
  const secret = join(base, 'secret.md');
  writeFileSync(secret, skillText('leak').replace('Body of leak.', 'SECRET CONTENT'));
  const skill = (name: string) => {
    mkdirSync(join(skills, name));
    writeFileSync(join(skills, name, 'SKILL.md'), skillText(name));
    return join(skills, name);
  };
  return { base, skills, secret, skill };
}

describe('links in a skills folder', () => {
  it('refuses a SKILL.md that links outside the folder, and reads the other skills', async () => {
    const { skills, secret, skill } = workspace();
    skill('alpha');
    mkdirSync(join(skills, 'leak'));
    symlinkSync(secret, join(skills, 'leak', 'SKILL.md'));
    const folder = await readSkillsFolder(skills);
    expect(folder.skills.map((entry) => entry.id)).toEqual(['alpha']);
    expect(folder.issues).toEqual([
      expect.objectContaining({ code: 'link_outside_folder', file: join(skills, 'leak', 'SKILL.md') }),
    ]);
    expect(folder.issues[0]!.message).toContain(`is a link to ${secret}, outside the imported folder`);
    expect(JSON.stringify(folder.skills)).not.toContain('SECRET CONTENT');
  });

  it('refuses a flat rule file that links outside the folder, and follows one that stays inside', async () => {
    const { skills, secret } = workspace();
    symlinkSync(secret, join(skills, 'leak.md'));
    writeFileSync(join(skills, 'github.md'), '---\ntriggers: [github]\n---\n\nUse the API.\n');
    symlinkSync(join(skills, 'github.md'), join(skills, 'mirror.md'));
    const folder = await readSkillsFolder(skills);
    // `mirror.md` leads to `github.md` inside the folder: read, its id its own stem.
    expect(folder.skills.map((entry) => entry.id)).toEqual(['github', 'mirror']);
    expect(folder.issues.map((issue) => [issue.code, issue.file])).toEqual([
      ['link_outside_folder', join(skills, 'leak.md')],
    ]);
    expect(JSON.stringify(folder.skills)).not.toContain('SECRET CONTENT');
  });

  it('refuses a skill folder that links outside, and a bundled file or folder that does', async () => {
    const { base, skills, secret, skill } = workspace();
    const elsewhere = join(base, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'SKILL.md'), skillText('outside'));
    symlinkSync(elsewhere, join(skills, 'outside'));
    symlinkSync(secret, join(skill('bundles-file'), 'notes.md'));
    symlinkSync(base, join(skill('bundles-folder'), 'up'));
    const folder = await readSkillsFolder(skills);
    expect(folder.skills).toEqual([]);
    expect(folder.issues.map((issue) => [issue.code, issue.file, issue.path])).toEqual([
      ['link_outside_folder', join(skills, 'bundles-file', 'SKILL.md'), ['files', 'notes.md']],
      ['link_outside_folder', join(skills, 'bundles-folder', 'SKILL.md'), ['files', 'up']],
      ['link_outside_folder', join(skills, 'outside', 'SKILL.md'), []],
    ]);
  });

  it('follows links that stay inside the folder, each folder once', async () => {
    const { skills, skill } = workspace();
    const shared = skill('shared');
    writeFileSync(join(shared, 'reference.md'), 'shared reference\n');
    const user = skill('user');
    symlinkSync(join(shared, 'reference.md'), join(user, 'reference.md'));
    // A loop inside the folder is walked once.
    symlinkSync(user, join(user, 'again'));
    const folder = await readSkillsFolder(skills);
    expect(folder.issues).toEqual([]);
    const files = folder.skills.find((entry) => entry.id === 'user')?.files;
    expect(files).toEqual([{ path: 'reference.md', encoding: 'utf8', content: 'shared reference\n' }]);
  });

  it('hsa import skills exits 1 naming the link; --skip-invalid writes the rest', async () => {
    const { base, skills, secret, skill } = workspace();
    skill('alpha');
    mkdirSync(join(skills, 'leak'));
    symlinkSync(secret, join(skills, 'leak', 'SKILL.md'));
    const out = join(base, 'harness.yaml');
    const refused = runCli(['import', 'skills', skills, '-o', out]);
    expect(refused.status).toBe(1);
    const said = `${refused.stdout}${refused.stderr}`;
    expect(said).toContain(`${join(skills, 'leak', 'SKILL.md')} is a link to ${secret}`);
    expect(said).toContain('[link_outside_folder]');
    const skipped = runCli(['import', 'skills', skills, '--skip-invalid', '-o', out]);
    // As with any invalid skill: the rest is written, the exit code says one was left out.
    expect(skipped.status).toBe(1);
    expect(skipped.stderr).toContain('imported 1 skills, left out 1');
  });

  it('refuses a FIFO named SKILL.md instead of reading it forever', async () => {
    const { skills, skill } = workspace();
    skill('alpha');
    mkdirSync(join(skills, 'pipe'));
    execFileSync('mkfifo', [join(skills, 'pipe', 'SKILL.md')]);
    const folder = await readSkillsFolder(skills);
    expect(folder.skills.map((entry) => entry.id)).toEqual(['alpha']);
    expect(folder.issues).toEqual([
      expect.objectContaining({ code: 'not_a_file', file: join(skills, 'pipe', 'SKILL.md') }),
    ]);
  });
});
