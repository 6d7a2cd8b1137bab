// Agent Skills (agentskills.io) ⇄ harness skills. A SKILL.md file is YAML front matter between `---` lines
// followed by a Markdown body. The harness fields that the format has no place for travel in `metadata`
// under `hsa-` keys, so that rendering then parsing a skill gives it back exactly.
import type { Dirent } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import YAML from 'yaml';
import { createLineLocator, findForbiddenKeys } from '../documents.js';
import { contentHash } from '../hash.js';
import { HarnessAugmentError, type Issue, type JsonPath, quote, type SafeResult } from '../issues.js';
import { lineAndColumn } from '../json-syntax.js';
import { fromZodIssues } from '../parse-harness.js';
import { type Skill, SkillSchema } from '../schema.js';
import { makeFolder } from '../write-file-atomic.js';
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

/** A SKILL.md split into its parts, with the line where each part starts. */
interface SkillFile {
  frontMatter: string;
  body: string;
  /** The line of the closing `---`. */
  closingLine: number;
  bodyLine: number;
}

/** Splits a SKILL.md into front matter and body, or returns the issue that prevents it. */
function splitSkillFile(text: string): SkillFile | Issue {
  const opening = /^---[ \t]*(\r?\n)/.exec(text);
  if (!opening) {
    return {
      code: 'missing_front_matter',
      path: [],
      line: 1,
      message: 'a SKILL.md must start with a "---" line that opens the YAML front matter',
    };
  }
  const lineBreak = opening[1] ?? '\n';
  let lineStart = opening[0].length;
  let line = 2;
  for (;;) {
    const lineEnd = text.indexOf('\n', lineStart);
    const end = lineEnd === -1 ? text.length : lineEnd;
    if (/^---[ \t]*\r?$/.test(text.slice(lineStart, end))) {
      let body = lineEnd === -1 ? '' : text.slice(lineEnd + 1);
      let bodyLine = line + 1;
      // One blank line may separate the front matter from the body, and the file ends with a line break;
      // neither belongs to the body. Everything else does, so a rendered body comes back exactly.
      if (body.startsWith(lineBreak)) {
        body = body.slice(lineBreak.length);
        bodyLine += 1;
      }
      if (body.endsWith(lineBreak)) body = body.slice(0, -lineBreak.length);
      return { frontMatter: text.slice(opening[0].length, lineStart), body, closingLine: line, bodyLine };
    }
    if (lineEnd === -1) break;
    lineStart = lineEnd + 1;
    line += 1;
  }
  return {
    code: 'unclosed_front_matter',
    path: [],
    line: 1,
    message: 'the front matter opened on line 1 is never closed by a "---" line',
  };
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
  const split = splitSkillFile(text.replace(/^\uFEFF/, ''));
  if ('code' in split) return fail([split]);

  const document = YAML.parseDocument(split.frontMatter, { uniqueKeys: true, prettyErrors: false });
  const syntax = document.errors[0];
  if (syntax) {
    // An error found at the end of the text (an unclosed quote or bracket) is shown on the last front-matter line.
    const offset = Math.min(syntax.pos[0], Math.max(0, split.frontMatter.length - 1));
    const { line, column } = lineAndColumn(split.frontMatter, offset);
    return fail([
      {
        code: 'invalid_front_matter',
        path: [],
        line: line + 1,
        message: `invalid YAML in the front matter: ${syntax.message.split('\n')[0]} (column ${column})`,
      },
    ]);
  }
  const locate = createLineLocator({ text: split.frontMatter, format: 'yaml' });
  // Front-matter paths are counted from the line after the opening `---`; the body has its own path.
  const lineOf = (path: JsonPath) => {
    if (path[0] === 'body') return split.body.length > 0 ? split.bodyLine : split.closingLine;
    const line = locate(path);
    return line === undefined ? 1 : line + 1;
  };
  const withLines = (issues: Issue[]) =>
    issues.map((issue) => ({ ...issue, line: issue.line ?? lineOf(issue.path) }));

  const value: unknown = document.toJS({ maxAliasCount: 100 });
  const forbidden = findForbiddenKeys(value);
  if (forbidden.length > 0) return fail(withLines(forbidden), lineOf);
  if (!isPlainObject(value)) {
    return fail(
      [
        {
          code: 'invalid_front_matter',
          path: [],
          line: 1,
          message: `the front matter must be a YAML mapping, not ${jsonTypeOf(value)}`,
        },
      ],
      lineOf,
    );
  }

  const issues: Issue[] = [];
  const name = readName(value.name, issues);
  const description = readDescription(value.description, issues);
  const metadata = readMetadata(value.metadata, issues);
  if (split.body.length === 0)
    issues.push({ code: 'missing_body', path: ['body'], message: 'the skill has no Markdown body' });
  if (issues.length > 0 || name === undefined || description === undefined)
    return fail(withLines(issues), lineOf, name);

  const idFromMetadata = metadata.id !== undefined;
  const skill = {
    id: metadata.id ?? name,
    kind: metadata.kind ?? 'reply',
    description,
    body: split.body,
    ...(metadata.risk === undefined ? {} : { risk: metadata.risk }),
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
 * every issue. `license`, `compatibility`, `allowed-tools` and other metadata are not kept.
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
 * `metadata`. Throws a HarnessAugmentError when the skill is invalid or its description is too long.
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
  const metadata: Record<string, string> = {};
  if (skill.id !== name) metadata[skillMetadataKeys.id] = skill.id;
  if (skill.kind !== 'reply') metadata[skillMetadataKeys.kind] = skill.kind;
  if (skill.risk !== undefined) metadata[skillMetadataKeys.risk] = skill.risk;
  const frontMatter = {
    name,
    description: skill.description,
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
  // No line folding and no block scalars: every string stays on one line, quoted and escaped when needed.
  const yaml = YAML.stringify(frontMatter, { lineWidth: 0, blockQuote: false, doubleQuotedAsJSON: true });
  return `---\n${yaml}---\n\n${skill.body}\n`;
}

/**
 * Reads every `<dir>/<folder>/SKILL.md`, folders in code-unit order of their names, so the result is the
 * same on every machine; folders without a SKILL.md are skipped. Throws a HarnessAugmentError listing the
 * issues of all files, including a `name` that differs from its folder and ids used twice.
 *
 * @example
 * const skills = await loadSkillsFolder('fixtures/importers/skills');
 */
export async function loadSkillsFolder(dir: string): Promise<Skill[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    throw new HarnessAugmentError(`${dir}: cannot read the skills folder: ${(error as Error).message}`, {
      kind: 'usage',
      cause: error,
    });
  }
  const folders: string[] = [];
  for (const entry of entries) {
    if (entry.isDirectory()) folders.push(entry.name);
    else if (entry.isSymbolicLink() && (await isDirectory(join(dir, entry.name)))) folders.push(entry.name);
  }
  folders.sort();

  const skills: Skill[] = [];
  const issues: Issue[] = [];
  const firstFile = new Map<string, string>();
  for (const folder of folders) {
    const file = join(dir, folder, fileName);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new HarnessAugmentError(`${file}: cannot read: ${(error as Error).message}`, {
        kind: 'usage',
        cause: error,
      });
    }
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
    if (!document.result.success) {
      issues.push(...document.result.issues);
      continue;
    }
    const skill = document.result.data;
    const earlier = firstFile.get(skill.id);
    if (earlier !== undefined) {
      const path = skill.id === document.name ? ['name'] : ['metadata', skillMetadataKeys.id];
      issues.push({
        code: 'duplicate_id',
        path,
        file,
        line: document.lineOf(path),
        message: `skill id "${skill.id}" is already used by ${earlier}`,
      });
      continue;
    }
    firstFile.set(skill.id, file);
    skills.push(skill);
  }
  if (issues.length > 0)
    throw new HarnessAugmentError(`${dir}: invalid skills: ${issues.length} issue(s)`, { issues });
  return skills;
}

/**
 * Writes each skill to `<dir>/<name>/SKILL.md` (creating folders, replacing files) and returns the paths
 * written, in the order of the skills. Names come from `skillName`; when two skills would share a name the
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
  const files: string[] = [];
  for (const { name, text } of rendered) {
    const folder = join(dir, name);
    await makeFolder(folder);
    const file = join(folder, fileName);
    await writeFile(file, text, 'utf8');
    files.push(file);
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
