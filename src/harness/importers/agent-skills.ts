// Agent Skills (agentskills.io) ⇄ harness skills. A SKILL.md file is YAML front matter between `---` lines
// followed by a Markdown body. The harness fields that the format has no place for travel in `metadata`
// under `hsa-` keys, so that rendering then parsing a skill gives it back exactly.
import type { Dirent } from 'node:fs';
import { lstat, readdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { contentHash } from '../hash.js';
import { HarnessAugmentError, type Issue, type JsonPath, quote, type SafeResult } from '../issues.js';
import { assertNoLinkBelow, assertOutputAllowed } from '../output-guard.js';
import { fromZodIssues } from '../parse-harness.js';
import { type SkillFile as BundledFile, type Skill, SkillSchema } from '../schema.js';
import { makeFolder } from '../write-file-atomic.js';
import { stringifyYaml } from '../yaml-text.js';
import { readFrontMatter } from './front-matter.js';
import { type DescribedFrom, readRuleFile, ruleFilePattern } from './rule-files.js';
import { isPlainObject, jsonTypeOf } from './tool-fields.js';

/** The Agent Skills name rule: lowercase letters and digits in hyphen-separated runs, at most 64 characters. */
const skillNamePattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const maxNameLength = 64;
const maxDescriptionLength = 1024;
const fileName = 'SKILL.md';
const skillKinds: readonly Skill['kind'][] = ['reply', 'strategy'];
const skillRisks: readonly NonNullable<Skill['risk']>[] = ['low', 'medium', 'high'];

/**
 * The metadata keys under which a SKILL.md carries the harness fields that Agent Skills have no place for.
 *
 * @example
 * YAML.parse(frontMatter).metadata[skillMetadataKeys.id] // the exact id, e.g. 'item_qa' for the name 'item-qa'
 */
export const skillMetadataKeys = { id: 'hsa-id', kind: 'hsa-kind', risk: 'hsa-risk' } as const;

/** Options of `renderSkillMarkdown`. */
export interface RenderSkillOptions {
  /** The `name` to write, in the Agent Skills format; defaults to `skillName(skill.id)`. */
  name?: string;
}

const codePoints = (text: string) => [...text].length;

/**
 * Turns a skill id into an Agent Skills name: lowercase, every run of other characters (such as `_`) one
 * hyphen, at most 64 characters; an id with no ASCII letter or digit becomes `skill-` and a hash of the id.
 *
 * @example
 * skillName('Item_QA') // 'item-qa'
 */
export function skillName(id: string): string {
  const name = id
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, maxNameLength)
    .replace(/-+$/, '');
  return name.length > 0 ? name : `skill-${contentHash(id).slice('sha256:'.length, 'sha256:'.length + 8)}`;
}

/** What parsing a SKILL.md gives: the skill or the issues, and the `name` it declares when it has one. */
interface SkillDocument {
  name: string | undefined;
  /** Where the line of each front-matter path is found; for issues added by the folder loader. */
  lineOf: (path: JsonPath) => number | undefined;
  result: SafeResult<Skill>;
}

function readSkillDocument(text: string, source: string | undefined): SkillDocument {
  const located = (issues: Issue[]): Issue[] =>
    issues.map((issue) => ({ ...issue, ...(source === undefined ? {} : { file: source }) }));
  const fail = (
    issues: Issue[],
    lineOf: SkillDocument['lineOf'] = () => undefined,
    name?: string,
  ): SkillDocument => ({
    name,
    lineOf,
    result: { success: false, issues: located(issues) },
  });
  if (typeof text !== 'string') {
    return fail([
      { code: 'invalid_type', path: [], message: `expected the text of a SKILL.md, not ${jsonTypeOf(text)}` },
    ]);
  }
  const read = readFrontMatter(text, 'a SKILL.md');
  if ('issues' in read) return fail(read.issues, read.lineOf);
  const { value, body, lineOf, withLines } = read;

  const issues: Issue[] = [];
  const name = readName(value.name, issues);
  const description = readDescription(value.description, issues);
  const metadata = readMetadata(value.metadata, issues);
  if (body.length === 0)
    issues.push({ code: 'missing_body', path: ['body'], message: 'the skill has no Markdown body' });
  if (issues.length > 0 || name === undefined || description === undefined)
    return fail(withLines(issues), lineOf, name);

  const idFromMetadata = metadata.id !== undefined;
  const frontMatter = otherFrontMatter(value);
  const skill = {
    id: metadata.id ?? name,
    kind: metadata.kind ?? 'reply',
    description,
    body,
    ...(metadata.risk === undefined ? {} : { risk: metadata.risk }),
    ...(frontMatter === undefined ? {} : { frontMatter }),
  };
  const parsed = SkillSchema.safeParse(skill);
  if (!parsed.success) {
    const moved = fromZodIssues(parsed.error.issues).map((issue) =>
      issue.path[0] === 'id'
        ? { ...issue, path: idFromMetadata ? ['metadata', skillMetadataKeys.id] : ['name'] }
        : issue,
    );
    return fail(withLines(moved), lineOf, name);
  }
  return { name, lineOf, result: { success: true, data: parsed.data } };
}

const hsaKeys = new Set<string>(Object.values(skillMetadataKeys));

/**
 * The front-matter fields a harness skill keeps for export: all but `name` and `description`, and
 * `metadata` without its `hsa-` keys (dropped when nothing else is left in it).
 */
function otherFrontMatter(value: Record<string, unknown>): Record<string, unknown> | undefined {
  const kept: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (key === 'name' || key === 'description') continue;
    if (key === 'metadata' && isPlainObject(entry)) {
      const rest = Object.fromEntries(Object.entries(entry).filter(([inner]) => !hsaKeys.has(inner)));
      if (Object.keys(rest).length > 0 || Object.keys(entry).length === 0) kept.metadata = rest;
      continue;
    }
    kept[key] = entry;
  }
  return Object.keys(kept).length > 0 ? kept : undefined;
}

function readName(value: unknown, issues: Issue[]): string | undefined {
  if (value === undefined || value === null) {
    issues.push({ code: 'missing_name', path: ['name'], message: 'the front matter has no name' });
    return undefined;
  }
  if (typeof value !== 'string') {
    issues.push({
      code: 'invalid_type',
      path: ['name'],
      message: `name must be a string, not ${jsonTypeOf(value)}`,
    });
    return undefined;
  }
  if (!skillNamePattern.test(value) || value.length > maxNameLength) {
    issues.push({
      code: 'invalid_skill_name',
      path: ['name'],
      message: `name ${quote(value)} must be 1-64 lowercase letters, digits and single hyphens, not starting or ending with a hyphen`,
    });
    return undefined;
  }
  return value;
}

function readDescription(value: unknown, issues: Issue[]): string | undefined {
  if (value === undefined || value === null || value === '') {
    issues.push({
      code: 'missing_description',
      path: ['description'],
      message: 'the front matter has no description',
    });
    return undefined;
  }
  if (typeof value !== 'string') {
    issues.push({
      code: 'invalid_type',
      path: ['description'],
      message: `description must be a string, not ${jsonTypeOf(value)}`,
    });
    return undefined;
  }
  if (codePoints(value) > maxDescriptionLength) {
    issues.push({
      code: 'description_too_long',
      path: ['description'],
      message: `description has ${codePoints(value)} characters; Agent Skills allow at most ${maxDescriptionLength}`,
    });
    return undefined;
  }
  return value;
}

/** Reads the `hsa-` keys of `metadata`; other metadata is not part of a harness skill and is left unchecked. */
function readMetadata(
  value: unknown,
  issues: Issue[],
): { id?: string; kind?: Skill['kind']; risk?: Skill['risk'] } {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) {
    issues.push({
      code: 'invalid_type',
      path: ['metadata'],
      message: `metadata must be a mapping, not ${jsonTypeOf(value)}`,
    });
    return {};
  }
  const read = (key: string): string | undefined => {
    const entry = value[key];
    if (entry === undefined) return undefined;
    if (typeof entry !== 'string') {
      issues.push({
        code: 'invalid_type',
        path: ['metadata', key],
        message: `${key} must be a string, not ${jsonTypeOf(entry)}`,
      });
      return undefined;
    }
    return entry;
  };
  const oneOf = <T extends string>(key: string, allowed: readonly T[], code: string): T | undefined => {
    const entry = read(key);
    if (entry === undefined) return undefined;
    if ((allowed as readonly string[]).includes(entry)) return entry as T;
    issues.push({
      code,
      path: ['metadata', key],
      message: `${key} must be one of ${allowed.map((option) => `"${option}"`).join(', ')}, not ${JSON.stringify(entry)}`,
    });
    return undefined;
  };
  const id = read(skillMetadataKeys.id);
  const kind = oneOf(skillMetadataKeys.kind, skillKinds, 'invalid_skill_kind');
  const risk = oneOf(skillMetadataKeys.risk, skillRisks, 'invalid_skill_risk');
  return {
    ...(id === undefined ? {} : { id }),
    ...(kind === undefined ? {} : { kind }),
    ...(risk === undefined ? {} : { risk }),
  };
}

/**
 * Parses the text of a SKILL.md into a skill, or returns every issue found, each with the file (when
 * `source` is given), the line and the front-matter path.
 *
 * @example
 * const result = safeParseSkillMarkdown(text, 'skills/item-qa/SKILL.md');
 * if (!result.success) console.log(result.issues.map(formatIssue).join('\n'));
 */
export function safeParseSkillMarkdown(text: string, source?: string): SafeResult<Skill> {
  return readSkillDocument(text, source).result;
}

/**
 * Parses the text of a SKILL.md into a skill: the id is `metadata.hsa-id` or else `name`, the kind
 * `metadata.hsa-kind` or else `reply`, the risk `metadata.hsa-risk`. Throws a HarnessAugmentError listing
 * every issue. `license`, `compatibility`, `allowed-tools`, other `metadata` and any other front-matter
 * field are kept in `frontMatter`, so `renderSkillMarkdown` writes them back.
 *
 * @example
 * parseSkillMarkdown('---\nname: item-qa\ndescription: Product questions\n---\n\nQuote the final price.\n')
 * // { id: 'item-qa', kind: 'reply', description: 'Product questions', body: 'Quote the final price.' }
 */
export function parseSkillMarkdown(text: string, source?: string): Skill {
  const result = safeParseSkillMarkdown(text, source);
  if (result.success) return result.data;
  throw new HarnessAugmentError(
    `${source ?? '<SKILL.md>'}: invalid skill: ${result.issues.length} issue(s)`,
    {
      issues: result.issues,
    },
  );
}

/**
 * Renders a skill as a SKILL.md whose `parseSkillMarkdown` gives the same skill back: the name in the Agent
 * Skills format, the exact id in `metadata.hsa-id` when the name differs, a `strategy` kind and a risk in
 * `metadata`, then the kept front-matter fields (`frontMatter`). Bundled `files` are written by
 * `writeSkillsFolder`. Throws a HarnessAugmentError when the skill is invalid or its description is too long.
 *
 * @example
 * renderSkillMarkdown({ id: 'item_qa', kind: 'reply', description: 'Product questions', body: 'Quote the final price.' })
 * // '---\nname: item-qa\ndescription: Product questions\nmetadata:\n  hsa-id: item_qa\n---\n\nQuote the final price.\n'
 */
export function renderSkillMarkdown(skill: Skill, options: RenderSkillOptions = {}): string {
  const parsed = SkillSchema.safeParse(skill);
  const issues = parsed.success ? [] : fromZodIssues(parsed.error.issues);
  if (parsed.success && codePoints(skill.description) > maxDescriptionLength) {
    issues.push({
      code: 'description_too_long',
      path: ['description'],
      message: `description has ${codePoints(skill.description)} characters; Agent Skills allow at most ${maxDescriptionLength}`,
    });
  }
  if (issues.length > 0)
    throw new HarnessAugmentError(`cannot render skill as SKILL.md: ${issues.length} issue(s)`, { issues });
  const name = options.name ?? skillName(skill.id);
  if (!skillNamePattern.test(name) || name.length > maxNameLength) {
    throw new HarnessAugmentError(`invalid Agent Skills name ${JSON.stringify(name)}`, {
      kind: 'usage',
      issues: [
        {
          code: 'invalid_skill_name',
          path: ['name'],
          message: 'must be 1-64 lowercase letters, digits and single hyphens',
        },
      ],
    });
  }
  const { metadata: keptMetadata, ...keptFields } = skill.frontMatter ?? {};
  const metadata: Record<string, unknown> = isPlainObject(keptMetadata) ? { ...keptMetadata } : {};
  if (skill.id !== name) metadata[skillMetadataKeys.id] = skill.id;
  if (skill.kind !== 'reply') metadata[skillMetadataKeys.kind] = skill.kind;
  if (skill.risk !== undefined) metadata[skillMetadataKeys.risk] = skill.risk;
  const frontMatter = {
    name,
    description: skill.description,
    ...keptFields,
    ...(Object.keys(metadata).length > 0 || isPlainObject(keptMetadata) ? { metadata } : {}),
  };
  // No line folding and no block scalars: every string stays on one line, quoted and escaped when needed.
  const yaml = stringifyYaml(frontMatter, { lineWidth: 0, blockQuote: false, doubleQuotedAsJSON: true });
  return `---\n${yaml}---\n\n${skill.body}\n`;
}

/** What reading a folder of Agent Skills gives: the valid skills and the issues of the others. */
export interface SkillsFolder {
  skills: Skill[];
  /** Issues with file and line; each invalid SKILL.md is left out of `skills`. */
  issues: Issue[];
  /** The SKILL.md and rule files left out, in folder order. */
  skipped: string[];
  /**
   * Flat `.md`/`.mdc` files that are not skills, and why: no front matter (a README), or no body (a rule
   * file that only configures its agent, such as OpenHands' MCP servers). Not read as skills.
   */
  leftAside: Array<{ file: string; reason: 'no front matter' | 'no body' }>;
  /** Rule files without a description, described from their `triggers` or `globs` (./rule-files.ts). */
  described: Array<{ file: string; from: 'triggers' | 'globs' }>;
}

/** Options of `loadSkillsFolder`. */
export interface LoadSkillsOptions {
  /** Leave out invalid skills (their issues go to `onIssue`) instead of throwing. */
  skipInvalid?: boolean;
  onIssue?: (issue: Issue) => void;
}

/** The most bytes a skill folder may bundle; beyond it the skill is invalid. */
const maxBundledBytes = 16 * 1024 * 1024;
const maxBundledFiles = 2_000;

/**
 * Where a path really is (links resolved) when that is inside `root` (a real path); otherwise the issue
 * that says where the link leads. A skill folder imports what it holds, never a file a link brings in
 * from elsewhere (`/etc/passwd` embedded as a skill).
 */
async function insideRoot(
  path: string,
  root: string,
  issueFile: string,
  issuePath: JsonPath,
): Promise<{ real: string } | Issue> {
  let real: string;
  try {
    real = await realpath(path);
  } catch (error) {
    return {
      code: 'broken_link',
      path: issuePath,
      file: issueFile,
      message: `${path} cannot be resolved: ${(error as Error).message}`,
    };
  }
  const within = relative(root, real);
  if (within === '' || (within !== '..' && !within.startsWith(`..${sep}`) && !isAbsolute(within)))
    return { real };
  return {
    code: 'link_outside_folder',
    path: issuePath,
    file: issueFile,
    message: `${path} is a link to ${real}, outside the imported folder ${root}; links must stay inside it`,
  };
}

/**
 * The files a skill folder bundles besides its SKILL.md, in code-unit order of their paths, text as UTF-8
 * and other bytes as base64. Links are followed when they stay inside `root` (each folder walked once);
 * a link that leaves it makes the skill invalid.
 */
async function readBundledFiles(
  folder: string,
  file: string,
  root: string,
): Promise<{ files: BundledFile[] } | Issue> {
  const files: BundledFile[] = [];
  let bytes = 0;
  const walked = new Set<string>();
  const walk = async (relative: string): Promise<Issue | undefined> => {
    const real = await realpath(join(folder, relative));
    if (walked.has(real)) return undefined;
    walked.add(real);
    const entries = await readdir(join(folder, relative), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (path === fileName) continue;
      let kind: { isDirectory(): boolean; isFile(): boolean } = entry;
      if (entry.isSymbolicLink()) {
        const target = await insideRoot(join(folder, path), root, file, ['files', path]);
        if ('code' in target) return target;
        kind = await stat(target.real);
      }
      if (kind.isDirectory()) {
        const issue = await walk(path);
        if (issue) return issue;
        continue;
      }
      if (!kind.isFile()) continue;
      const content = await readFile(join(folder, path));
      bytes += content.length;
      if (files.length >= maxBundledFiles || bytes > maxBundledBytes) {
        return {
          code: 'bundle_too_large',
          path: ['files'],
          file,
          message: `the skill folder bundles more than ${maxBundledFiles} files or ${maxBundledBytes} bytes`,
        };
      }
      const text = content.toString('utf8');
      const isText = Buffer.from(text, 'utf8').equals(content);
      files.push({
        path,
        encoding: isText ? 'utf8' : 'base64',
        content: isText ? text : content.toString('base64'),
      });
    }
    return undefined;
  };
  const issue = await walk('');
  return issue ?? { files };
}

/**
 * Reads every `<dir>/<folder>/SKILL.md` and every flat rule file `<dir>/<name>.md` (or `.mdc`) that opens
 * with front matter (OpenHands microagents, Cursor rules: ./rule-files.ts), in code-unit order of their
 * names, so the result is the same on every machine; folders without a SKILL.md are left aside, and so are
 * flat files without front matter (listed in `leftAside`). Each skill keeps its other front-matter fields
 * and the files its folder bundles (`scripts/`, `reference/*.md`, assets). Returns the valid skills and,
 * for each invalid file, its issues with file and line: a bad field, a `name` that differs from its folder,
 * an id used twice.
 *
 * @example
 * const { skills, issues } = await readSkillsFolder('fixtures/importers/skills');
 */
export async function readSkillsFolder(dir: string): Promise<SkillsFolder> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    throw new HarnessAugmentError(`${dir}: cannot read the skills folder: ${(error as Error).message}`, {
      kind: 'usage',
      cause: error,
    });
  }
  // Skill folders and flat rule files, in one code-unit order of their names.
  const found: Array<{ name: string; flat: boolean }> = [];
  for (const entry of entries) {
    const linked = entry.isSymbolicLink();
    if (entry.isDirectory() || (linked && (await isDirectory(join(dir, entry.name)))))
      found.push({ name: entry.name, flat: false });
    else if (ruleFilePattern.test(entry.name) && (entry.isFile() || linked))
      found.push({ name: entry.name, flat: true });
  }
  found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const root = await realpath(dir);

  const skills: Skill[] = [];
  const issues: Issue[] = [];
  const skipped: string[] = [];
  const leftAside: SkillsFolder['leftAside'] = [];
  const described: Array<{ file: string; from: 'triggers' | 'globs' }> = [];
  const firstFile = new Map<string, string>();
  for (const { name, flat } of found) {
    const file = flat ? join(dir, name) : join(dir, name, fileName);
    let text: string;
    try {
      // A skill folder, SKILL.md or rule file that is a link is read only when it leads inside the folder.
      let refused: Issue | undefined;
      for (const path of flat ? [file] : [join(dir, name), file]) {
        if (refused || !(await lstat(path)).isSymbolicLink()) continue;
        const target = await insideRoot(path, root, file, []);
        if ('code' in target) refused = target;
      }
      // A FIFO or device named SKILL.md would be read forever.
      if (!refused && !(await stat(file)).isFile())
        refused = { code: 'not_a_file', path: [], file, message: `${file} is not a regular file` };
      if (refused) {
        issues.push(refused);
        skipped.push(file);
        continue;
      }
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new HarnessAugmentError(`${file}: cannot read: ${(error as Error).message}`, {
        kind: 'usage',
        cause: error,
      });
    }
    const document = flat ? flatDocument(text, file, name) : folderDocument(text, file, name);
    // A flat Markdown file without front matter (a README) is not a rule file, nor one without a body (it
    // gives the model nothing to read): left aside, and said so.
    if (document.notASkill) {
      leftAside.push({ file, reason: document.notASkill });
      continue;
    }
    const { skill, issues: found } = document;
    const earlier = skill ? firstFile.get(skill.id) : undefined;
    if (skill && earlier !== undefined) {
      found.push({
        code: 'duplicate_id',
        path: document.idPath,
        file,
        line: document.lineOf(document.idPath),
        message: `skill id "${skill.id}" is already used by ${earlier}`,
      });
    }
    const bundle =
      skill && found.length === 0
        ? flat
          ? { files: [] }
          : await readBundledFiles(join(dir, name), file, root)
        : undefined;
    if (bundle && 'code' in bundle) found.push(bundle);
    if (!skill || found.length > 0 || !bundle || 'code' in bundle) {
      issues.push(...found);
      skipped.push(file);
      continue;
    }
    firstFile.set(skill.id, file);
    if (document.describedFrom === 'triggers' || document.describedFrom === 'globs')
      described.push({ file, from: document.describedFrom });
    skills.push(bundle.files.length > 0 ? { ...skill, files: bundle.files } : skill);
  }
  return { skills, issues, skipped, leftAside, described };
}

/** One skill file read: the skill or its issues, where its id is written, and where its description came from. */
interface ReadSkill {
  skill: Skill | undefined;
  issues: Issue[];
  idPath: JsonPath;
  lineOf: (path: JsonPath) => number | undefined;
  describedFrom?: DescribedFrom;
  notASkill?: SkillsFolder['leftAside'][number]['reason'];
}

/** `<folder>/SKILL.md`: an Agent Skill, whose `name` must be its folder's. */
function folderDocument(text: string, file: string, folder: string): ReadSkill {
  const issues: Issue[] = [];
  const document = readSkillDocument(text, file);
  if (document.name !== undefined && document.name !== folder) {
    issues.push({
      code: 'name_mismatch',
      path: ['name'],
      file,
      line: document.lineOf(['name']),
      message: `name "${document.name}" must match its folder "${folder}"`,
    });
  }
  if (!document.result.success) issues.push(...document.result.issues);
  const skill = document.result.success ? document.result.data : undefined;
  const idPath = skill?.id === document.name ? ['name'] : ['metadata', skillMetadataKeys.id];
  return { skill, issues, idPath, lineOf: document.lineOf };
}

/** `<name>.md` or `.mdc` with front matter: a rule file (./rule-files.ts), its id `name` or the file's stem. */
function flatDocument(text: string, file: string, name: string): ReadSkill {
  const document = readRuleFile(text, file, name.replace(ruleFilePattern, ''));
  const skill = document.result.success ? document.result.data : undefined;
  return {
    skill,
    issues: document.result.success ? [] : [...document.result.issues],
    idPath: document.idPath,
    lineOf: document.lineOf,
    ...(document.describedFrom ? { describedFrom: document.describedFrom } : {}),
    ...(document.notASkill ? { notASkill: document.notASkill } : {}),
  };
}

/**
 * Reads a folder of Agent Skills (`readSkillsFolder`). Throws a HarnessAugmentError listing the issues of
 * all files, unless `skipInvalid` is set: then the invalid skills are left out and their issues go to
 * `onIssue`.
 *
 * @example
 * const skills = await loadSkillsFolder('skills', { skipInvalid: true, onIssue: (issue) => console.error(formatIssue(issue)) });
 */
export async function loadSkillsFolder(dir: string, options: LoadSkillsOptions = {}): Promise<Skill[]> {
  const folder = await readSkillsFolder(dir);
  if (folder.issues.length > 0 && !options.skipInvalid)
    throw new HarnessAugmentError(`${dir}: invalid skills: ${folder.issues.length} issue(s)`, {
      issues: folder.issues,
    });
  for (const issue of folder.issues) options.onIssue?.(issue);
  return folder.skills;
}

/**
 * Writes each skill to `<dir>/<name>/SKILL.md` with its bundled files beside it (creating folders,
 * replacing files) and returns the SKILL.md paths written, in the order of the skills. Names come from `skillName`; when two skills would share a name the
 * later ones get `-2`, `-3`, … Throws a HarnessAugmentError when a skill is invalid or ids repeat.
 *
 * @example
 * const files = await writeSkillsFolder(harness.skills.items, 'out/skills');
 */
export async function writeSkillsFolder(skills: Skill[], dir: string): Promise<string[]> {
  const issues: Issue[] = [];
  const seen = new Map<string, number>();
  skills.forEach((skill, index) => {
    const parsed = SkillSchema.safeParse(skill);
    if (!parsed.success) {
      issues.push(...fromZodIssues(parsed.error.issues, [index]));
      return;
    }
    const first = seen.get(skill.id);
    if (first === undefined) seen.set(skill.id, index);
    else
      issues.push({
        code: 'duplicate_id',
        path: [index, 'id'],
        message: `skill id "${skill.id}" is already used at index ${first}`,
      });
  });
  if (issues.length > 0)
    throw new HarnessAugmentError(`cannot write skills: ${issues.length} issue(s)`, { issues });

  const rendered = uniqueNames(skills.map((skill) => skillName(skill.id))).map((name, index) => ({
    name,
    text: renderSkillMarkdown(skills[index] as Skill, { name }),
  }));
  // Every path is checked before the first write: none is an input, none goes through a link below `dir`.
  for (const [index, { name }] of rendered.entries()) {
    const paths = [
      join(dir, name, fileName),
      ...(skills[index]?.files ?? []).map((bundled) => join(dir, name, ...bundled.path.split('/'))),
    ];
    for (const path of paths) {
      await assertNoLinkBelow(dir, path);
      await assertOutputAllowed(path);
    }
  }
  const files: string[] = [];
  for (const [index, { name, text }] of rendered.entries()) {
    const folder = join(dir, name);
    await makeFolder(folder);
    const file = join(folder, fileName);
    await writeFile(file, text, 'utf8');
    files.push(file);
    // Bundled files come back byte for byte, next to the SKILL.md that links to them.
    for (const bundled of skills[index]?.files ?? []) {
      const target = join(folder, ...bundled.path.split('/'));
      await makeFolder(dirname(target));
      await writeFile(target, Buffer.from(bundled.content, bundled.encoding));
    }
  }
  return files;
}

/** Makes names unique in order: a repeated name gets the smallest suffix `-2`, `-3`, … not taken by any skill. */
function uniqueNames(names: readonly string[]): string[] {
  const natural = new Set(names);
  const used = new Set<string>();
  return names.map((name) => {
    let unique = name;
    for (let counter = 2; used.has(unique) || (unique !== name && natural.has(unique)); counter++) {
      const suffix = `-${counter}`;
      unique = `${name.slice(0, maxNameLength - suffix.length).replace(/-+$/, '')}${suffix}`;
    }
    used.add(unique);
    return unique;
  });
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
