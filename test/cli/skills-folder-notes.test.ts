// The notes of a skills folder's import, on OpenHands' microagents (test/perturbations/fixtures/openhands-skills).
import { describe, expect, it } from 'vitest';
import { skillsFolderNotes } from '../../src/cli/skills-folder-notes.js';
import { readSkillsFolder } from '../../src/harness/importers/agent-skills.js';

describe('skillsFolderNotes', () => {
  it('names the descriptions made from triggers and the bodies that are templates of a slash command', async () => {
    const folder = 'test/perturbations/fixtures/openhands-skills';
    const notes = skillsFolderNotes('--skills skills', await readSkillsFolder(folder));
    expect(notes).toEqual([
      expect.stringMatching(/^note: --skills skills: 4 rule files have no description; /),
      "note: --skills skills: 1 skill's body holds {{ }} placeholders, which a loaded skill gives the model unfilled: fix_test",
    ]);
  });
});
