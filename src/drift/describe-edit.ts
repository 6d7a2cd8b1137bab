// Describes the edit between two harness versions in the library's vocabulary, per dimension. Renames come
// first (a skill with the same kind and body under a new id, a tool with the same parameters under a new
// name, a property with the same schema under a new key) and are applied to the older version through the
// symbol table (`renameSymbols`), so that what is left to compare is content: a rename that also rewrites
// mentions elsewhere reads as one rename, not as rewordings all over the harness.

import type { Dimension } from '../augment/operator.js';
import { type ParameterRename, renameSymbols } from '../augment/rename-symbols.js';
import { canonicalJson, sameCanonicalJson } from '../harness/canonical-json.js';
import type { Harness, Hook, PromptSection, Skill, Tool } from '../harness/schema.js';
import { composeRelabels, type Relabel } from '../trajectory/relabel.js';
import { type ChangeKind, changeKinds } from './change-kinds.js';
import { collapseWhitespace, sameFacts, similarity, textFacts } from './text-facts.js';

/** One kind of change between two versions, with its magnitude: `count` of `total` items touched. */
export interface DriftChange {
  dimension: Dimension;
  kind: ChangeKind;
  /** An exact relabel carries a trajectory across this change. */
  taskPreserving: boolean;
  /** Exact only for trajectories whose hook decisions stay (budgets, thresholds). */
  conditional?: true;
  count: number;
  total: number;
  /** The skills, tools, parameters, sections or hooks touched (names of the older version). */
  subjects: string[];
  /** For renames: old name → new name. */
  map?: Record<string, string>;
}

type Found = Map<ChangeKind, { subjects: string[]; total: number; map?: Record<string, string> }>;

function note(found: Found, kind: ChangeKind, subject: string, total: number, rename?: string): void {
  let entry = found.get(kind);
  if (!entry) {
    entry = { subjects: [], total };
    found.set(kind, entry);
  }
  if (!entry.subjects.includes(subject)) entry.subjects.push(subject);
  if (rename !== undefined) entry.map = { ...entry.map, [subject]: rename };
}

/** Items of `before` and `after` matched by key, with those only in one of them, in their own orders. */
function match<T>(before: readonly T[], after: readonly T[], key: (item: T) => string) {
  const afterKeys = new Map(after.map((item) => [key(item), item]));
  const beforeKeys = new Set(before.map(key));
  return {
    common: before
      .filter((item) => afterKeys.has(key(item)))
      .map((item) => [item, afterKeys.get(key(item)) as T] as const),
    removed: before.filter((item) => !afterKeys.has(key(item))),
    added: after.filter((item) => !beforeKeys.has(key(item))),
  };
}

/** How many of the shared keys stand elsewhere in the new order than in the old. */
function moved(before: readonly string[], after: readonly string[]): string[] {
  const shared = new Set(after);
  const left = before.filter((key) => shared.has(key));
  const kept = new Set(left);
  const right = after.filter((key) => kept.has(key));
  return left.filter((key, index) => right[index] !== key);
}

/** Pairs removed and added items greedily by a score (the first best wins), at or above `threshold`. */
function pairUp<A, B>(
  removed: readonly A[],
  added: readonly B[],
  score: (a: A, b: B) => number,
  threshold: number,
) {
  const pairs: Array<[A, B]> = [];
  const free = [...added];
  for (const item of removed) {
    let best = -1;
    let bestScore = threshold;
    free.forEach((candidate, index) => {
      const value = score(item, candidate);
      if (value >= bestScore && (best < 0 || value > bestScore)) {
        best = index;
        bestScore = value;
      }
    });
    if (best >= 0) pairs.push([item, free.splice(best, 1)[0] as B]);
  }
  return {
    pairs,
    unpairedRemoved: removed.filter((item) => !pairs.some(([a]) => a === item)),
    unpairedAdded: free,
  };
}

// ── renames ────────────────────────────────────────────────────────────────────────────────────────────

function skillRenames(before: Harness, after: Harness): Record<string, string> {
  const { removed, added } = match(before.skills.items, after.skills.items, (skill) => skill.id);
  const score = (old: Skill, next: Skill) => {
    if (old.kind !== next.kind) return 0;
    const body = old.body.split(old.id).join(next.id);
    if (body === next.body || old.description === next.description) return 1;
    return similarity(body, next.body);
  };
  const { pairs } = pairUp(removed, added, score, 0.8);
  return Object.fromEntries(pairs.map(([old, next]) => [old.id, next.id]));
}

function toolRenames(before: Harness, after: Harness): Record<string, string> {
  const { removed, added } = match(before.tools.items, after.tools.items, (tool) => tool.name);
  const score = (old: Tool, next: Tool) =>
    sameCanonicalJson(old.parameters, next.parameters)
      ? 1 + similarity(old.description, next.description)
      : old.description === next.description
        ? 1
        : 0;
  const { pairs } = pairUp(removed, added, score, 1);
  return Object.fromEntries(pairs.map(([old, next]) => [old.name, next.name]));
}

type SchemaNode = Record<string, unknown>;
const isNode = (value: unknown): value is SchemaNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const propertiesOf = (node: SchemaNode): Record<string, unknown> =>
  isNode(node.properties) ? node.properties : {};

/** A schema without its descriptions and with its property names and order left out: what a rename keeps. */
function shapeOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(shapeOf);
  if (!isNode(node)) return node;
  const { description: _description, title: _title, properties, required, ...rest } = node;
  return {
    ...Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, shapeOf(value)])),
    ...(isNode(properties)
      ? {
          properties: Object.values(properties)
            .map((value) => canonicalJson(shapeOf(value)))
            .sort(),
        }
      : {}),
    ...(Array.isArray(required) ? { required: required.length } : {}),
  };
}

/** Properties with the same schema under a new key, at every depth of the tools the two versions share. */
function parameterRenames(before: Harness, after: Harness): ParameterRename[] {
  const renames: ParameterRename[] = [];
  const walk = (tool: string, old: unknown, next: unknown, path: string[]) => {
    if (!isNode(old) || !isNode(next)) return;
    const oldProperties = propertiesOf(old);
    const newProperties = propertiesOf(next);
    const removed = Object.keys(oldProperties).filter((key) => !Object.hasOwn(newProperties, key));
    const added = Object.keys(newProperties).filter((key) => !Object.hasOwn(oldProperties, key));
    const { pairs } = pairUp(
      removed,
      added,
      (a, b) => (sameCanonicalJson(shapeOf(oldProperties[a]), shapeOf(newProperties[b])) ? 1 : 0),
      1,
    );
    for (const [from, to] of pairs) renames.push({ tool, path: [...path, from], to });
    for (const key of Object.keys(oldProperties))
      if (Object.hasOwn(newProperties, key))
        walk(tool, oldProperties[key], newProperties[key], [...path, key]);
    if (isNode(old.items) && isNode(next.items)) walk(tool, old.items, next.items, [...path, '[]']);
  };
  const { common } = match(before.tools.items, after.tools.items, (tool) => tool.name);
  for (const [old, next] of common) walk(old.name, old.parameters, next.parameters, []);
  return renames;
}

/** The older version with the renames of the newer applied through the symbol table, and the renames. */
function alignRenames(
  before: Harness,
  after: Harness,
  found: Found,
): { aligned: Harness; relabels: Relabel[] } {
  const skills = skillRenames(before, after);
  const tools = toolRenames(before, after);
  const loader = before.skills.loader;
  const nextLoader = after.skills.loader;
  if (loader.tool !== nextLoader.tool) tools[loader.tool] = nextLoader.tool;
  const loaderArgument = loader.argument !== nextLoader.argument ? nextLoader.argument : undefined;
  let aligned = before;
  const relabels: Relabel[] = [];
  try {
    const renamed = renameSymbols(before, { skills, tools, ...(loaderArgument ? { loaderArgument } : {}) });
    aligned = renamed.harness;
    relabels.push(renamed.relabel);
  } catch {
    // Renames the symbol table refuses (a name taken twice) stay unaligned: the content diff shows them.
    return { aligned: before, relabels };
  }
  for (const [from, to] of Object.entries(skills))
    note(found, 'skill-renamed', from, before.skills.items.length, to);
  for (const [from, to] of Object.entries(tools)) {
    if (from === loader.tool) note(found, 'loader-renamed', from, 1, to);
    else note(found, 'tool-renamed', from, before.tools.items.length, to);
  }
  if (loaderArgument) note(found, 'loader-renamed', `${loader.tool}.${loader.argument}`, 1, loaderArgument);
  const parameters = parameterRenames(aligned, after);
  if (parameters.length > 0) {
    try {
      const renamed = renameSymbols(aligned, { parameters });
      aligned = renamed.harness;
      relabels.push(renamed.relabel);
      const total = countParameters(before);
      for (const rename of parameters)
        note(found, 'parameter-renamed', `${rename.tool}.${rename.path.join('.')}`, total, rename.to);
    } catch {
      // As above: left to the content diff.
    }
  }
  return { aligned, relabels };
}

function countParameters(harness: Harness): number {
  let count = 0;
  const walk = (node: unknown) => {
    if (!isNode(node)) return;
    for (const child of Object.values(propertiesOf(node))) {
      count++;
      walk(child);
    }
    walk(node.items);
  };
  for (const tool of harness.tools.items) walk(tool.parameters);
  return Math.max(count, 1);
}

// ── skill content ──────────────────────────────────────────────────────────────────────────────────────

interface Line {
  style: 'bullet' | 'numbered' | 'prose';
  text: string;
}

function linesOf(body: string): Line[] {
  return body
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .map((line): Line => {
      const bullet = /^[-*+]\s+(.*)$/.exec(line);
      if (bullet) return { style: 'bullet', text: collapseWhitespace(bullet[1] as string) };
      const numbered = /^\d+[.)]\s+(.*)$/.exec(line);
      if (numbered) return { style: 'numbered', text: collapseWhitespace(numbered[1] as string) };
      return { style: 'prose', text: collapseWhitespace(line) };
    });
}

function describeSkillBody(old: Skill, next: Skill, found: Found, total: number): void {
  if (old.body === next.body) return;
  const before = linesOf(old.body);
  const after = linesOf(next.body);
  const afterTexts = after.map((line) => line.text);
  const beforeTexts = before.map((line) => line.text);
  const remaining = [...afterTexts];
  const common: string[] = [];
  const removed: Line[] = [];
  for (const line of before) {
    const at = remaining.indexOf(line.text);
    if (at >= 0) {
      remaining.splice(at, 1);
      common.push(line.text);
    } else removed.push(line);
  }
  const pool = [...beforeTexts];
  const added = after.filter((line) => {
    const at = pool.indexOf(line.text);
    if (at >= 0) {
      pool.splice(at, 1);
      return false;
    }
    return true;
  });
  const keptOrder = afterTexts.filter((text) => common.includes(text));
  if (moved(common, keptOrder).length > 0) note(found, 'rules-reordered', old.id, total);
  const styles = (lines: Line[]) =>
    lines
      .filter((line) => common.includes(line.text))
      .map((line) => `${line.text}\u0000${line.style}`)
      .sort();
  if (canonicalJson(styles(before)) !== canonicalJson(styles(after)))
    note(found, 'rules-list-style-changed', old.id, total);
  const { pairs, unpairedRemoved, unpairedAdded } = pairUp(
    removed,
    added,
    (a, b) => similarity(a.text, b.text),
    0.4,
  );
  for (const [a, b] of pairs)
    note(found, sameFacts(a.text, b.text) ? 'rules-reworded' : 'rules-changed', old.id, total);
  const firstListed = after.findIndex((line) => line.style !== 'prose');
  for (const line of unpairedAdded) {
    const position = after.indexOf(line);
    const plain = line.style === 'prose' && textFacts(line.text).length === 0;
    note(
      found,
      plain && (firstListed < 0 || position < firstListed) ? 'preamble-added' : 'rules-added',
      old.id,
      total,
    );
  }
  if (unpairedRemoved.length > 0) note(found, 'rules-removed', old.id, total);
  const texts = (lines: Line[]) => lines.map((line) => `${line.text}\u0000${line.style}`).join('\n');
  if (removed.length === 0 && added.length === 0 && texts(before) === texts(after)) {
    // The same lines in the same styles: other numbers before the items, blank lines or indentation.
    if (collapseWhitespace(old.body) !== collapseWhitespace(next.body))
      note(found, 'rules-list-style-changed', old.id, total);
  }
}

function describeSkills(aligned: Harness, after: Harness, found: Found): void {
  const total = aligned.skills.items.length;
  const { common, removed, added } = match(aligned.skills.items, after.skills.items, (skill) => skill.id);
  for (const skill of removed) note(found, 'skill-removed', skill.id, total);
  for (const skill of added) note(found, 'skill-added', skill.id, total);
  const order = moved(
    aligned.skills.items.map((skill) => skill.id),
    after.skills.items.map((skill) => skill.id),
  );
  for (const id of order) note(found, 'skills-reordered', id, total);
  for (const [old, next] of common) {
    if (old.kind !== next.kind || old.risk !== next.risk) note(found, 'skill-kind-changed', old.id, total);
    if (old.description !== next.description)
      note(
        found,
        sameFacts(old.description, next.description) ? 'skill-description-reworded' : 'rules-changed',
        old.id,
        total,
      );
    describeSkillBody(old, next, found, total);
  }
  const { loader } = aligned.skills;
  if (loader.description !== after.skills.loader.description)
    note(
      found,
      sameFacts(loader.description, after.skills.loader.description)
        ? 'tool-description-reworded'
        : 'tool-description-changed',
      loader.tool,
      aligned.tools.items.length + 1,
    );
}

// ── tools ──────────────────────────────────────────────────────────────────────────────────────────────

function describeSchema(
  tool: string,
  old: unknown,
  next: unknown,
  path: string[],
  found: Found,
  totals: { tools: number; parameters: number },
): void {
  if (!isNode(old) || !isNode(next)) {
    if (!sameCanonicalJson(old, next))
      note(found, 'schema-changed', `${tool}.${path.join('.')}`, totals.tools);
    return;
  }
  const where = [tool, ...path].join('.');
  if (old.type !== next.type && path.length > 0) note(found, 'parameter-retyped', where, totals.parameters);
  if (typeof old.description === 'string' || typeof next.description === 'string') {
    const a = String(old.description ?? '');
    const b = String(next.description ?? '');
    if (a !== b)
      note(
        found,
        sameFacts(a, b) ? 'tool-description-reworded' : 'tool-description-changed',
        tool,
        totals.tools,
      );
  }
  const oldProperties = propertiesOf(old);
  const newProperties = propertiesOf(next);
  const newRequired = Array.isArray(next.required) ? (next.required as string[]) : [];
  const oldRequired = Array.isArray(old.required) ? (old.required as string[]) : [];
  for (const key of Object.keys(oldProperties))
    if (!Object.hasOwn(newProperties, key))
      note(found, 'parameter-removed', [where, key].join('.'), totals.parameters);
  for (const key of Object.keys(newProperties))
    if (!Object.hasOwn(oldProperties, key))
      note(
        found,
        newRequired.includes(key) ? 'parameter-added' : 'optional-parameter-added',
        [where, key].join('.'),
        totals.parameters,
      );
  if (moved(Object.keys(oldProperties), Object.keys(newProperties)).length > 0)
    note(found, 'properties-reordered', tool, totals.tools);
  const shared = Object.keys(oldProperties).filter((key) => Object.hasOwn(newProperties, key));
  if (
    canonicalJson(oldRequired.filter((key) => shared.includes(key)).sort()) !==
    canonicalJson(newRequired.filter((key) => shared.includes(key)).sort())
  )
    note(found, 'schema-changed', where, totals.tools);
  for (const key of shared)
    describeSchema(tool, oldProperties[key], newProperties[key], [...path, key], found, totals);
  if (old.items !== undefined || next.items !== undefined)
    describeSchema(tool, old.items, next.items, [...path, '[]'], found, totals);
  const rest = (node: SchemaNode) => {
    const {
      description: _d,
      properties: _p,
      required: _r,
      items: _i,
      type: _t,
      title: _title,
      ...others
    } = node;
    return others;
  };
  if (!sameCanonicalJson(rest(old), rest(next)) || (old.title ?? null) !== (next.title ?? null))
    note(found, 'schema-changed', where, totals.tools);
}

function describeTools(aligned: Harness, after: Harness, found: Found): void {
  const totals = { tools: aligned.tools.items.length, parameters: countParameters(aligned) };
  const { common, removed, added } = match(aligned.tools.items, after.tools.items, (tool) => tool.name);
  for (const tool of removed) note(found, 'tool-removed', tool.name, totals.tools);
  for (const tool of added) note(found, 'tool-added', tool.name, totals.tools);
  for (const name of moved(
    aligned.tools.items.map((tool) => tool.name),
    after.tools.items.map((tool) => tool.name),
  ))
    note(found, 'tools-reordered', name, totals.tools);
  for (const [old, next] of common) {
    if (old.description !== next.description)
      note(
        found,
        sameFacts(old.description, next.description)
          ? 'tool-description-reworded'
          : 'tool-description-changed',
        old.name,
        totals.tools,
      );
    describeSchema(old.name, old.parameters, next.parameters, [], found, totals);
  }
}

// ── prompt ─────────────────────────────────────────────────────────────────────────────────────────────

function describePrompt(aligned: Harness, after: Harness, found: Found): void {
  const before = aligned.prompt;
  const next = after.prompt;
  const total = before.sections.length;
  if (before.headingStyle !== next.headingStyle)
    note(found, 'heading-style-changed', `${before.headingStyle}→${next.headingStyle}`, 1);
  if (before.listStyle !== next.listStyle)
    note(found, 'list-style-changed', `${before.listStyle}→${next.listStyle}`, 1);
  const { common, removed, added } = match(
    before.sections,
    next.sections,
    (section: PromptSection) => section.id,
  );
  for (const section of removed) note(found, 'section-removed', section.id, total);
  for (const section of added) note(found, 'section-added', section.id, total);
  for (const id of moved(
    before.sections.map((section) => section.id),
    next.sections.map((section) => section.id),
  ))
    note(found, 'sections-reordered', id, total);
  for (const [old, section] of common) {
    if (old.title !== section.title) note(found, 'section-retitled', old.id, total);
    if (old.pinned !== section.pinned) note(found, 'section-pin-changed', old.id, total);
    if (old.template === section.template) continue;
    if (collapseWhitespace(old.template) === collapseWhitespace(section.template))
      note(found, 'whitespace-changed', old.id, total);
    else
      note(
        found,
        sameFacts(old.template, section.template) ? 'section-reworded' : 'section-changed',
        old.id,
        total,
      );
  }
}

// ── hooks ──────────────────────────────────────────────────────────────────────────────────────────────

function describeHooks(aligned: Harness, after: Harness, found: Found): void {
  const total = aligned.hooks.items.length;
  const retries = Math.max(1, aligned.hooks.items.filter((hook) => hook.onFail.action === 'retry').length);
  const { common, removed, added } = match(aligned.hooks.items, after.hooks.items, (hook: Hook) => hook.id);
  for (const hook of removed) note(found, 'hook-removed', hook.id, total);
  for (const hook of added) note(found, 'hook-added', hook.id, total);
  for (const id of moved(
    aligned.hooks.items.map((hook) => hook.id),
    after.hooks.items.map((hook) => hook.id),
  ))
    note(found, 'hooks-reordered', id, total);
  for (const [old, next] of common) {
    if (old.enabled !== next.enabled)
      note(found, next.enabled ? 'hook-enabled' : 'hook-disabled', old.id, total);
    if (old.stage !== next.stage || !sameCanonicalJson(old.tools ?? null, next.tools ?? null))
      note(found, 'hook-check-changed', old.id, total);
    const { max: oldMax, ...oldCheck } = old.check as { max?: number };
    const { max: newMax, ...newCheck } = next.check as { max?: number };
    if (!sameCanonicalJson(oldCheck, newCheck)) note(found, 'hook-check-changed', old.id, total);
    else if (oldMax !== newMax) note(found, 'threshold-changed', old.id, total);
    if (old.onFail.action === 'retry' && next.onFail.action === 'retry') {
      const { maxRetries: a, feedback: f, ...restA } = old.onFail;
      const { maxRetries: b, feedback: g, ...restB } = next.onFail;
      if (a !== b) note(found, 'budget-changed', old.id, retries);
      if (f !== g) note(found, sameFacts(f, g) ? 'feedback-reworded' : 'feedback-changed', old.id, retries);
      if (!sameCanonicalJson(restA, restB)) note(found, 'hook-check-changed', old.id, total);
    } else if (!sameCanonicalJson(old.onFail, next.onFail)) note(found, 'hook-check-changed', old.id, total);
  }
}

// ── the edit ───────────────────────────────────────────────────────────────────────────────────────────

const kindOrder = Object.keys(changeKinds) as ChangeKind[];

/** An edit: its changes and the relabel of its renames (the whole relabel when every change preserves the task). */
export interface DescribedEdit {
  changes: DriftChange[];
  /** Carries a trajectory of `before` into the vocabulary of `after` (renames of skills, tools, parameters). */
  relabel: Relabel;
  taskPreserving: boolean;
}

/**
 * The edit from `before` to `after`, one entry per kind of change, in the order of `changeKinds`. Part
 * versions and the harness description are not compared.
 *
 * @example
 * describeEdit(v1, v2) // [{ dimension: 'skill-ids', kind: 'skill-renamed', map: { escalation: 'handover' }, … }]
 */
export function describeEdit(before: Harness, after: Harness): DriftChange[] {
  return describeEditWithRelabel(before, after).changes;
}

/**
 * The edit with the relabel that carries a trajectory of `before` over to `after`: exact when
 * `taskPreserving` (the rest of the edit is reorders and rewordings a trajectory does not name).
 *
 * @example
 * const { relabel, taskPreserving } = describeEditWithRelabel(v1, v2);
 * if (taskPreserving) forwardTrajectory(gold, relabel);
 */
export function describeEditWithRelabel(before: Harness, after: Harness): DescribedEdit {
  const found: Found = new Map();
  const { aligned, relabels } = alignRenames(before, after, found);
  describeSkills(aligned, after, found);
  describeTools(aligned, after, found);
  describePrompt(aligned, after, found);
  describeHooks(aligned, after, found);
  const changes = kindOrder
    .filter((kind) => found.has(kind))
    .map((kind): DriftChange => {
      const entry = found.get(kind) as { subjects: string[]; total: number; map?: Record<string, string> };
      const spec = changeKinds[kind];
      return {
        dimension: spec.dimension,
        kind,
        taskPreserving: spec.preserving !== false,
        ...(spec.preserving === 'conditional' ? { conditional: true as const } : {}),
        count: entry.subjects.length,
        total: Math.max(entry.total, entry.subjects.length),
        subjects: entry.subjects,
        ...(entry.map ? { map: entry.map } : {}),
      };
    });
  return {
    changes,
    relabel: composeRelabels(...relabels),
    taskPreserving: changes.every((change) => change.taskPreserving),
  };
}
