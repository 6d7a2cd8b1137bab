// Builds one harness from many sources (tool lists, skill folders, prompt and hook files), or updates the
// harness a file holds: each of its four lists is merged by ./merge-items.ts against the build record, and
// the rest of the file (id, description, versions, loader, prompt styles) stays as the file has it.
import type { CheckHarnessOptions } from '../check-harness.js';
import { skeletonSectionApplies, skeletonSections } from '../importers/skeleton.js';
import { HarnessAugmentError, type Issue } from '../issues.js';
import { safeParseHarness } from '../parse-harness.js';
import {
  type Harness,
  type HarnessInput,
  type Hook,
  type PromptSection,
  PromptSectionSchema,
  type Skill,
  type Tool,
} from '../schema.js';
import { type BuildListName, buildListNames, type OwnedItems } from './build-record.js';
import { type MergedEntry, mergeItems, type SourceItem } from './merge-items.js';

/** What one source gives, named as the user named it (`--openai-tools tools.json`). */
export interface HarnessSource {
  label: string;
  tools?: Tool[];
  skills?: Skill[];
  sections?: PromptSection[];
  hooks?: Hook[];
}

/** The source of the prompt sections every built harness starts with (role, skills, tools). */
export const buildSourceLabel = 'hsa harness build';

/** What a build did to one list, keys in harness order. */
export interface ListChanges {
  added: string[];
  removed: string[];
  changed: string[];
  /** Items the user edited in the file whose source did not change: kept as edited. */
  edited: string[];
  /** Items no source gives: the user's own, kept. */
  own: string[];
}

export interface MergeHarnessInput {
  sources: readonly HarnessSource[];
  /** The harness the output file holds now; absent when the file does not exist yet. */
  existing?: Harness;
  /** The build record beside that file (what each source gave at the last build). */
  owned: OwnedItems;
  /** The harness id: required for a new harness, replaces the file's when given. */
  id?: string;
  description?: string;
  checks?: CheckHarnessOptions;
  /**
   * Whether the build gives its own `tools` section (`{{toolList}}`, every tool's name and description in
   * the prompt); default true. False leaves it out, and takes it out of a file an earlier build gave it to:
   * for an agent whose tools reach the model only through the API's tool list.
   */
  toolList?: boolean;
}

export interface MergedHarness {
  harness: Harness;
  /** The merged lists, each entry a file item kept or a source item, for writing the file back. */
  entries: Record<BuildListName, MergedEntry<unknown>[]>;
  /** The record of this build. */
  owned: OwnedItems;
  changes: Record<BuildListName, ListChanges>;
}

const keyOf: Record<BuildListName, (item: never) => string> = {
  tools: (tool: Tool) => tool.name,
  skills: (skill: Skill) => skill.id,
  sections: (section: PromptSection) => section.id,
  hooks: (hook: Hook) => hook.id,
};

const what: Record<BuildListName, string> = {
  tools: 'tool',
  skills: 'skill',
  sections: 'prompt section',
  hooks: 'hook',
};

/** Where each list sits in a harness. */
export const listPaths: Record<BuildListName, readonly [string, string]> = {
  tools: ['tools', 'items'],
  skills: ['skills', 'items'],
  sections: ['prompt', 'sections'],
  hooks: ['hooks', 'items'],
};

/**
 * The items the sources give now, in source order, with the build's own prompt sections that
 * `ownSections` admits: `role` first, `skills` and `tools` last, each unless a prompt source gives a
 * section of that id. Throws a `usage` error
 * naming both sources when two of them give an item of the same key.
 */
function sourceItems(
  sources: readonly HarnessSource[],
  ownSections: (id: string) => boolean,
): Record<BuildListName, SourceItem<unknown>[]> {
  const lists = {} as Record<BuildListName, SourceItem<unknown>[]>;
  const clashes: Issue[] = [];
  for (const name of buildListNames) {
    const seen = new Map<string, string>();
    lists[name] = [];
    for (const source of sources)
      for (const item of (source[name] ?? []) as never[]) {
        const key = keyOf[name](item);
        const first = seen.get(key);
        if (first !== undefined) {
          clashes.push({
            code: 'defined_twice',
            path: [...listPaths[name]],
            message: `${what[name]} "${key}" is defined by both ${first} and ${source.label}; remove it from one of them`,
          });
          continue;
        }
        seen.set(key, source.label);
        lists[name].push({ key, item, source: source.label });
      }
  }
  if (clashes.length > 0)
    throw new HarnessAugmentError(
      `${clashes[0]!.message}${clashes.length > 1 ? ` (and ${clashes.length - 1} more)` : ''}`,
      { kind: 'usage', issues: clashes },
    );
  const given = new Set(lists.sections.map((entry) => entry.key));
  const own = skeletonSections
    .map((section) => PromptSectionSchema.parse(section))
    .filter((section) => !given.has(section.id) && ownSections(section.id))
    .filter((section) =>
      skeletonSectionApplies(section.id, { skills: lists.skills.length, tools: lists.tools.length }),
    )
    .map((section) => ({ key: section.id, item: section, source: buildSourceLabel }));
  lists.sections = [
    ...own.filter((entry) => entry.key === 'role'),
    ...lists.sections,
    ...own.filter((entry) => entry.key !== 'role'),
  ];
  return lists;
}

/**
 * Merges the sources into the existing harness (or a new one) and checks the result. Throws a `usage`
 * error when two sources define one item, and an `invalid` error listing the issues of the built harness,
 * each naming the source of the item it is about.
 *
 * @example
 * const merged = mergeHarness({ sources: [{ label: '--openai-tools tools.json', tools }], owned: ownedItems(undefined), id: 'desk' });
 * merged.changes.tools.added // every tool of tools.json
 */
export function mergeHarness(input: MergeHarnessInput): MergedHarness {
  const { existing, owned: previous } = input;
  // The build's own sections start a new harness; in an existing file they are the build's only where the
  // record says so (a hand-written `role` section is the user's, never replaced by the default one).
  const desired = sourceItems(
    input.sources,
    (id) =>
      (id !== 'tools' || input.toolList !== false) &&
      (existing === undefined || previous.sections.get(id)?.source === buildSourceLabel),
  );
  const current: Record<BuildListName, readonly unknown[]> = {
    tools: existing?.tools.items ?? [],
    skills: existing?.skills.items ?? [],
    sections: existing?.prompt.sections ?? [],
    hooks: existing?.hooks.items ?? [],
  };
  const entries = {} as MergedHarness['entries'];
  const owned = {} as OwnedItems;
  const changes = {} as MergedHarness['changes'];
  for (const name of buildListNames) {
    const merged = mergeItems({
      current: current[name],
      keyOf: keyOf[name] as (item: unknown) => string,
      desired: desired[name],
      previous: previous[name],
    });
    entries[name] = merged.entries;
    owned[name] = merged.owned;
    const { added, removed, changed, edited, own } = merged;
    changes[name] = { added, removed, changed, edited, own };
  }
  const id = input.id ?? existing?.id;
  if (id === undefined) throw new HarnessAugmentError('a new harness needs an id', { kind: 'usage' });
  const description = input.description ?? existing?.description;
  const items = (name: BuildListName) => entries[name].map((entry) => entry.item);
  const candidate: HarnessInput = {
    ...(existing?.$schema === undefined ? {} : { $schema: existing.$schema }),
    id,
    ...(description === undefined ? {} : { description }),
    skills: { ...(existing?.skills ?? { version: '1' }), items: items('skills') as Skill[] },
    hooks: { ...(existing?.hooks ?? { version: '1' }), items: items('hooks') as Hook[] },
    prompt: {
      ...(existing?.prompt ?? { version: '1' }),
      sections: items('sections') as PromptSection[],
    },
    tools: { ...(existing?.tools ?? { version: '1' }), items: items('tools') as Tool[] },
  };
  const result = safeParseHarness(candidate, input.checks);
  if (!result.success)
    throw new HarnessAugmentError(`the built harness is not valid: ${result.issues.length} issue(s)`, {
      issues: result.issues.map((issue) => withSource(issue, entries, owned)),
    });
  return { harness: result.data, entries, owned, changes };
}

/** An issue about a list item says which source gave the item (or that the file holds it). */
function withSource(issue: Issue, entries: MergedHarness['entries'], owned: OwnedItems): Issue {
  const [part, list, index] = issue.path;
  const name = buildListNames.find(
    (candidate) => listPaths[candidate][0] === part && listPaths[candidate][1] === list,
  );
  if (name === undefined || typeof index !== 'number') return issue;
  const entry = entries[name][index];
  if (entry === undefined) return issue;
  const source =
    'fromSource' in entry ? owned[name].get(keyOf[name](entry.item as never))?.source : undefined;
  return { ...issue, message: `${issue.message} (${source ? `from ${source}` : 'as the file has it'})` };
}
