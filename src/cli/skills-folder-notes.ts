// The notes a skills folder's import prints (`hsa import skills`, `hsa harness build --skills`): what the
// user should check or move, never an error.
import type { SkillsFolder } from '../harness/importers/agent-skills.js';
import { firstFew } from './output.js';

/**
 * What a user should know of a skills folder that was read: the rule files described from their
 * conditions (the description is the library's sentence, not the author's), and the Markdown files left
 * aside for want of front matter.
 *
 * @example
 * skillsFolderNotes('--skills skills', await readSkillsFolder('skills')) // ['note: --skills skills: 3 rule files have no description: …']
 */
export function skillsFolderNotes(label: string, read: SkillsFolder): string[] {
  const notes: string[] = [];
  if (read.described.length > 0)
    notes.push(
      `note: ${label}: ${read.described.length} rule file${read.described.length === 1 ? ' has' : 's have'} no description; ` +
        `each is described from its triggers or globs ("Load when a message mentions …"): ${firstFew(read.described.map((entry) => entry.file))}`,
    );
  const aside = (reason: SkillsFolder['leftAside'][number]['reason']) =>
    read.leftAside.filter((entry) => entry.reason === reason).map((entry) => entry.file);
  const unmarked = aside('no front matter');
  if (unmarked.length > 0)
    notes.push(
      `note: ${label}: left aside ${unmarked.length} Markdown file${unmarked.length === 1 ? '' : 's'} without front matter ` +
        `(not a skill; text that is always in context belongs in --prompt): ${firstFew(unmarked)}`,
    );
  const empty = aside('no body');
  if (empty.length > 0)
    notes.push(
      `note: ${label}: left aside ${empty.length} rule file${empty.length === 1 ? '' : 's'} with front matter only ` +
        `(no text for the model): ${firstFew(empty)}`,
    );
  // A rule file may be a template its agent fills from a slash command (OpenHands' task microagents declare
  // `inputs`): a loaded skill gives the model its body as written, placeholders and all.
  const templated = read.skills.filter((skill) => /\{\{\s*[\p{L}_][\p{L}\p{N}_.-]*\s*\}\}/u.test(skill.body));
  if (templated.length > 0)
    notes.push(
      `note: ${label}: ${templated.length} skill${templated.length === 1 ? "'s body holds" : "s' bodies hold"} {{ }} placeholders, ` +
        `which a loaded skill gives the model unfilled: ${firstFew(templated.map((skill) => skill.id))}`,
    );
  return notes;
}
