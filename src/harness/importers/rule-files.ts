// Flat rule files as harness skills: `<name>.md` (or Cursor's `.mdc`) with YAML front matter, the form of
// OpenHands microagents, Cursor rules and Claude Code commands and agents. Unlike a SKILL.md, a rule file
// need not name itself or carry a description: the id is `name` or the file's stem, and a file without a
// description is described from what says when it applies (OpenHands' `triggers`, Cursor's `globs`). Every
// front-matter field but `name` and `description` is kept in `frontMatter`, so nothing of the file is lost.
import type { Issue, JsonPath, SafeResult } from '../issues.js';
import { fromZodIssues } from '../parse-harness.js';
import { type Skill, SkillSchema } from '../schema.js';
import { readFrontMatter } from './front-matter.js';
import { jsonTypeOf } from './tool-fields.js';

/** The file names read as rule files. */
export const ruleFilePattern = /\.mdc?$/;
const maxDescriptionLength = 1024;

/** Where a rule file's description came from: its own field, or the field that says when it applies. */
export type DescribedFrom = 'description' | 'triggers' | 'globs';

/** What reading a rule file gives: the skill or its issues, and where the description came from. */
export interface RuleDocument {
  result: SafeResult<Skill>;
  describedFrom?: DescribedFrom;
  /** Where the id is written: `['name']`, or `[]` when it is the file's stem. */
  idPath: JsonPath;
  /**
   * Why the file is no rule file, where it is none (its `result` then has no issue): it opens with no front
   * matter (a README), or nothing but blank lines follow its front matter (a file that only configures its
   * agent, such as OpenHands' MCP servers).
   */
  notASkill?: 'no front matter' | 'no body';
  lineOf: (path: JsonPath) => number | undefined;
}

/** `"a"`, `"a" or "b"`, `"a", "b" or "c"`. */
function alternatives(values: readonly string[]): string {
  const quoted = values.map((value) => JSON.stringify(value));
  return quoted.length === 1
    ? (quoted[0] as string)
    : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1) as string}`;
}

/** A field's strings: a non-empty string or a list of them, else undefined. */
function strings(value: unknown): string[] | undefined {
  const list = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined;
  if (!list) return undefined;
  const texts = list.flatMap((entry) =>
    typeof entry === 'string' && entry.trim() !== '' ? [entry.trim()] : [],
  );
  return texts.length > 0 && texts.length === list.length ? texts : undefined;
}

/**
 * The description a rule file gives, or the one its conditions make: OpenHands loads a microagent when a
 * message contains one of its `triggers`, Cursor attaches a rule when a file matches its `globs`.
 */
function description(
  value: Record<string, unknown>,
  issues: Issue[],
): { text: string; from: DescribedFrom } | undefined {
  const own = value.description;
  if (own !== undefined && own !== null && own !== '') {
    if (typeof own === 'string') return { text: own, from: 'description' };
    issues.push({
      code: 'invalid_type',
      path: ['description'],
      message: `description must be a string, not ${jsonTypeOf(own)}`,
    });
    return undefined;
  }
  const triggers = strings(value.triggers);
  if (triggers) return { text: `Load when a message mentions ${alternatives(triggers)}.`, from: 'triggers' };
  const globs = strings(value.globs);
  if (globs) return { text: `Load when working on files matching ${alternatives(globs)}.`, from: 'globs' };
  issues.push({
    code: 'missing_description',
    path: ['description'],
    message:
      'the front matter has no description, and no triggers or globs to describe the rule from; add a description: line',
  });
  return undefined;
}

/**
 * Reads a flat rule file as a skill (or says why it is none: `notASkill`): the id from `name` or else `stem`, the description from `description`,
 * `triggers` or `globs` (in that order), kind `reply`, the body as written, every other front-matter field in
 * `frontMatter`. Issues carry `file` and their line.
 *
 * @example
 * readRuleFile('---\nname: github\ntriggers: [github, git]\n---\n\nUse the API.\n', 'skills/github.md', 'github').result
 * // { success: true, data: { id: 'github', kind: 'reply', description: 'Load when a message mentions "github" or "git".', body: 'Use the API.', frontMatter: { triggers: ['github', 'git'] } } }
 */
export function readRuleFile(text: string, file: string, stem: string): RuleDocument {
  const located = (issues: Issue[]) => issues.map((issue) => ({ ...issue, file }));
  const none = (notASkill: 'no front matter' | 'no body'): RuleDocument => ({
    result: { success: false, issues: [] },
    idPath: [],
    lineOf: () => 1,
    notASkill,
  });
  if (!/^\uFEFF?---[ \t]*\r?\n/.test(text)) return none('no front matter');
  const read = readFrontMatter(text, 'a rule file');
  if ('issues' in read)
    return {
      result: { success: false, issues: located(read.issues) },
      idPath: [],
      lineOf: read.lineOf ?? (() => 1),
    };
  const { value, body, lineOf, withLines } = read;
  if (body.trim() === '') return none('no body');
  const issues: Issue[] = [];
  const idPath: JsonPath = value.name === undefined ? [] : ['name'];
  let id = stem;
  if (value.name !== undefined && value.name !== null) {
    if (typeof value.name === 'string') id = value.name;
    else
      issues.push({
        code: 'invalid_type',
        path: ['name'],
        message: `name must be a string, not ${jsonTypeOf(value.name)}`,
      });
  }
  const described = description(value, issues);
  if (described && [...described.text].length > maxDescriptionLength)
    issues.push({
      code: 'description_too_long',
      path: ['description'],
      message: `description has ${[...described.text].length} characters; at most ${maxDescriptionLength}`,
    });
  if (issues.length > 0 || !described)
    return { result: { success: false, issues: located(withLines(issues)) }, idPath, lineOf };
  const kept = Object.fromEntries(
    Object.entries(value).filter(([key]) => key !== 'name' && key !== 'description'),
  );
  const parsed = SkillSchema.safeParse({
    id,
    kind: 'reply',
    description: described.text,
    body,
    ...(Object.keys(kept).length > 0 ? { frontMatter: kept } : {}),
  });
  if (!parsed.success) {
    const moved = fromZodIssues(parsed.error.issues).map((issue) =>
      issue.path[0] === 'id' ? { ...issue, path: idPath } : issue,
    );
    return { result: { success: false, issues: located(withLines(moved)) }, idPath, lineOf };
  }
  return { result: { success: true, data: parsed.data }, describedFrom: described.from, idPath, lineOf };
}
