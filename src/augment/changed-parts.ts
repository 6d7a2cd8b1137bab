// The texts a variant changed, each paired with the base text it stands for: a skill's body or description,
// a tool's description, a parameter's description (at any depth, paired by `pairParameters`: through the
// relabel's renames and nests), a prompt section (or the whole prompt when sections were merged or split), a
// hook's messages. Parts are paired through the relabel's renames and merges (a renamed skill is the same part), and
// each variant text is also given back in the base's names (mentions found through the symbol table, never a
// blind replace), so that a change that is only a rename reads as none. The review page shows these parts;
// the meaning judge is asked about the ones that changed more than names.
import type { JsonPath } from '../harness/issues.js';
import type { Harness } from '../harness/schema.js';
import { findMentions, harnessSymbols, type SymbolEntry } from '../harness/symbol-table.js';
import type { Relabel } from '../trajectory/relabel.js';
import type { Dimension } from './operator.js';
import { formatParameterPath, type ParameterNode, pairParameters } from './parameter-pairs.js';

/** What kind of text a part is. */
export type PartKind =
  | 'skill_body'
  | 'skill_description'
  | 'tool_description'
  | 'parameter_description'
  | 'prompt_section'
  | 'prompt'
  | 'hook_text';

/** One side of a part: where it is, a readable name, and its text. */
export interface PartSide {
  /** Readable name, e.g. `skill reply.item_qa body` (merged skills list every source). */
  label: string;
  /** Where the text lives in its harness (the first source of a merged part). */
  path: JsonPath;
  text: string;
}

/** A text the variant changed, added or removed, beside the base text it stands for. */
export interface ChangedPart {
  kind: PartKind;
  /** Absent for a part the variant added (a distractor tool, a split-off section). */
  base?: PartSide;
  /** Absent for a part the variant removed. */
  variant?: PartSide;
  /** The variant's text with renamed identifiers written in their base names (equal to the text when none is). */
  inBaseNames?: string;
  /** Whether the change is only renamed identifiers: the variant's text in base names is the base text. */
  renameOnly: boolean;
}

/** The renames a relabel makes, from base names to the variant's, composed over its steps. */
export interface RelabelRenames {
  skills: Array<{ from: string; to: string }>;
  tools: Array<{ from: string; to: string }>;
  /** Parameter renames: the tool by its base name, the parameter's path below the arguments. */
  parameters: Array<{ tool: string; from: string; to: string }>;
  /** Skills merged into one: base ids → the merged id. */
  merges: Array<{ from: string[]; to: string }>;
}

/**
 * Composes a relabel's renames and merges from base names to the variant's names (identity entries left out).
 *
 * @example
 * relabelRenames({ steps: [{ type: 'rename_tools', map: { get_price: 'price_lookup' } }] }).tools
 * // [{ from: 'get_price', to: 'price_lookup' }]
 */
export function relabelRenames(relabel: Relabel): RelabelRenames {
  // Base name → current name, as each step is crossed (names in a step are those at its input).
  const skills = new Map<string, string>();
  const tools = new Map<string, string>();
  const parameters: RelabelRenames['parameters'] = [];
  const merged = new Map<string, string[]>();
  const current = (map: Map<string, string>, name: string) => {
    for (const [from, to] of map) if (to === name) return from;
    return undefined;
  };
  const follow = (map: Map<string, string>, renames: Record<string, string>) => {
    const startOf = new Map<string, string>();
    for (const name of Object.keys(renames)) startOf.set(name, current(map, name) ?? name);
    for (const [name, start] of startOf) map.set(start, renames[name] as string);
  };
  for (const step of relabel.steps) {
    if (step.type === 'rename_tools') follow(tools, step.map);
    else if (step.type === 'rename_skills') follow(skills, step.map);
    else if (step.type === 'rename_arguments') {
      const tool = current(tools, step.tool) ?? step.tool;
      for (const rename of step.renames)
        parameters.push({ tool, from: [...rename.path, rename.from].join('.'), to: rename.to });
    } else if (step.type === 'merge_skills') {
      const sources = step.sources.map((source) => current(skills, source) ?? source);
      for (const source of sources) skills.set(source, step.into);
      merged.set(step.into, sources);
    }
  }
  const mergedSources = new Set([...merged.values()].flat());
  const pairs = (map: Map<string, string>, skip: ReadonlySet<string> = new Set()) =>
    [...map].filter(([from, to]) => from !== to && !skip.has(from)).map(([from, to]) => ({ from, to }));
  return {
    skills: pairs(skills, mergedSources),
    tools: pairs(tools),
    parameters,
    merges: [...merged].map(([to, from]) => ({ from, to })),
  };
}

/** The dimension whose operators write each kind of part. */
const ownDimension: Record<PartKind, Dimension> = {
  skill_body: 'skill-content',
  skill_description: 'skill-content',
  tool_description: 'tools',
  parameter_description: 'tools',
  prompt_section: 'prompt',
  prompt: 'prompt',
  hook_text: 'hooks',
};
/** The dimensions whose renames reach the mentions in any text. */
const renameDimensions: readonly Dimension[] = ['skill-ids', 'tools'];

/**
 * The dimensions whose operators may have changed a part: the renaming ones for a rename-only change; the
 * part's own dimension otherwise, with the renaming ones when names changed in it too.
 *
 * @example
 * partDimensions({ kind: 'skill_body', renameOnly: true }) // ['skill-ids', 'tools']
 */
export function partDimensions(
  part: Pick<ChangedPart, 'kind' | 'renameOnly' | 'inBaseNames' | 'variant'>,
): Dimension[] {
  if (part.renameOnly) return [...renameDimensions];
  const own = ownDimension[part.kind];
  const renamed = part.variant !== undefined && part.inBaseNames !== part.variant.text;
  return renamed ? [own, ...renameDimensions.filter((dimension) => dimension !== own)] : [own];
}

/** Writes the variant's renamed identifiers in a text back in their base names, through the symbol table. */
function inBaseNamesOf(
  text: string,
  path: JsonPath,
  template: boolean,
  symbols: readonly SymbolEntry[],
  back: { skills: Map<string, string>; tools: Map<string, string>; parameters: Map<string, string> },
): string {
  const mentions = findMentions({ path, text, ...(template ? { template: true } : {}) }, symbols);
  let result = text;
  for (const mention of [...mentions].sort((a, b) => b.start - a.start)) {
    const original =
      mention.kind === 'skill'
        ? back.skills.get(mention.name)
        : mention.kind === 'tool'
          ? back.tools.get(mention.name)
          : mention.kind === 'parameter'
            ? back.parameters.get(`${mention.tool ?? ''}\u0000${mention.name}`)
            : undefined;
    if (original === undefined) continue;
    const written = text.slice(mention.start, mention.end);
    // A qualified mention (`tool.parameter`) spans both names: only the parameter's own name is replaced.
    const at = written.lastIndexOf(mention.name);
    if (at < 0) continue;
    const start = mention.start + at;
    result = result.slice(0, start) + original + result.slice(start + mention.name.length);
  }
  return result;
}

interface Candidate {
  kind: PartKind;
  key: string;
  side: PartSide;
  template: boolean;
}

function skillTexts(harness: Harness): Candidate[] {
  return harness.skills.items.flatMap((skill, index) => [
    {
      kind: 'skill_description' as const,
      key: skill.id,
      template: false,
      side: {
        label: `skill ${skill.id} description`,
        path: ['skills', 'items', index, 'description'],
        text: skill.description,
      },
    },
    {
      kind: 'skill_body' as const,
      key: skill.id,
      template: false,
      side: { label: `skill ${skill.id} body`, path: ['skills', 'items', index, 'body'], text: skill.body },
    },
  ]);
}

function toolTexts(harness: Harness): Candidate[] {
  return harness.tools.items.map((tool, index) => ({
    kind: 'tool_description' as const,
    key: tool.name,
    template: false,
    side: {
      label: `tool ${tool.name} description`,
      path: ['tools', 'items', index, 'description'],
      text: tool.description,
    },
  }));
}

/**
 * The parameter descriptions of the tools both harnesses have, keyed so that a base parameter's key maps to
 * its variant's (`pairParameters`); a parameter of a tool added or removed is left to that tool's part.
 */
function parameterTexts(
  base: Harness,
  variant: Harness,
  relabel: Relabel,
): { base: Candidate[]; variant: Candidate[]; map: (key: string) => string } {
  const candidate = (node: ParameterNode, key: string): Candidate[] => {
    const text = node.schema.description;
    if (typeof text !== 'string') return [];
    const where = node.path.length === 0 ? 'arguments' : `parameter ${formatParameterPath(node.path)}`;
    return [
      {
        kind: 'parameter_description',
        key,
        template: false,
        side: { label: `tool ${node.tool} ${where} description`, path: [...node.at, 'description'], text },
      },
    ];
  };
  const keyOf = (node: ParameterNode) => [node.tool, ...node.path].join('\u0000');
  const forward = new Map<string, string>();
  const out = { base: [] as Candidate[], variant: [] as Candidate[] };
  for (const tool of pairParameters(base, variant, relabel)) {
    for (const pair of tool.pairs) {
      forward.set(keyOf(pair.base), keyOf(pair.variant));
      out.base.push(...candidate(pair.base, keyOf(pair.base)));
      out.variant.push(...candidate(pair.variant, keyOf(pair.variant)));
    }
    for (const node of tool.removed) out.base.push(...candidate(node, keyOf(node)));
    for (const node of tool.added) out.variant.push(...candidate(node, keyOf(node)));
  }
  // A base key without a pair maps to no variant key: its part is a removed one.
  return { ...out, map: (key) => forward.get(key) ?? '' };
}

function sectionText(section: { title: string; template: string }): string {
  return `${section.title}\n\n${section.template}`;
}

function promptTexts(harness: Harness, whole: boolean): Candidate[] {
  if (whole)
    return [
      {
        kind: 'prompt',
        key: 'prompt',
        template: true,
        side: {
          label: 'prompt (every section, in order)',
          path: ['prompt', 'sections'],
          text: harness.prompt.sections.map(sectionText).join('\n\n'),
        },
      },
    ];
  return harness.prompt.sections.map((section, index) => ({
    kind: 'prompt_section' as const,
    key: section.id,
    template: true,
    side: {
      label: `prompt section ${section.id}`,
      path: ['prompt', 'sections', index],
      text: sectionText(section),
    },
  }));
}

function hookTexts(harness: Harness): Candidate[] {
  return harness.hooks.items.flatMap((hook, index) => {
    const at = ['hooks', 'items', index];
    const texts: Array<[string, string, boolean]> = [];
    if (hook.description !== undefined) texts.push(['description', hook.description, false]);
    const { onFail } = hook;
    if (onFail.action === 'retry') {
      texts.push(['onFail.feedback', onFail.feedback, true]);
      if (onFail.fallback !== undefined) texts.push(['onFail.fallback', onFail.fallback, false]);
    } else if (onFail.action === 'block' && onFail.message !== undefined)
      texts.push(['onFail.message', onFail.message, false]);
    else if (onFail.action === 'fallback') texts.push(['onFail.reply', onFail.reply, false]);
    return texts.map(([field, text, template]) => ({
      kind: 'hook_text' as const,
      key: `${hook.id}\u0000${field}`,
      template,
      side: { label: `hook ${hook.id} ${field}`, path: [...at, ...field.split('.')], text },
    }));
  });
}

/**
 * Lists the texts a variant changed, added or removed against its base, in a fixed order (skills, tools,
 * parameters, prompt, hooks; variant order within each, then what the variant removed), each with the base text it
 * stands for and its text in base names.
 *
 * @example
 * for (const part of changedParts(base, row.harness, row.relabel))
 *   console.log(part.kind, part.base?.label, part.renameOnly ? '(renames only)' : '');
 */
export function changedParts(base: Harness, variant: Harness, relabel: Relabel): ChangedPart[] {
  const renames = relabelRenames(relabel);
  const forward = {
    skills: new Map(renames.skills.map(({ from, to }) => [from, to])),
    tools: new Map(renames.tools.map(({ from, to }) => [from, to])),
  };
  for (const merge of renames.merges) for (const source of merge.from) forward.skills.set(source, merge.to);
  const back = {
    skills: new Map(renames.skills.map(({ from, to }) => [to, from])),
    tools: new Map(renames.tools.map(({ from, to }) => [to, from])),
    parameters: new Map<string, string>(),
  };
  // A parameter's own name maps back only where it is unambiguous for its tool.
  const parameterCounts = new Map<string, number>();
  for (const rename of renames.parameters) {
    const key = `${forward.tools.get(rename.tool) ?? rename.tool}\u0000${rename.to}`;
    parameterCounts.set(key, (parameterCounts.get(key) ?? 0) + 1);
    back.parameters.set(key, rename.from.split('.').at(-1) as string);
  }
  for (const [key, count] of parameterCounts) if (count > 1) back.parameters.delete(key);
  const symbols = harnessSymbols(variant);

  const sameSections =
    base.prompt.sections.length === variant.prompt.sections.length &&
    base.prompt.sections.every((section) => variant.prompt.sections.some((other) => other.id === section.id));
  const groups: Array<{ base: Candidate[]; variant: Candidate[]; map: (key: string) => string }> = [
    { base: skillTexts(base), variant: skillTexts(variant), map: (key) => forward.skills.get(key) ?? key },
    { base: toolTexts(base), variant: toolTexts(variant), map: (key) => forward.tools.get(key) ?? key },
    parameterTexts(base, variant, relabel),
    {
      base: promptTexts(base, !sameSections),
      variant: promptTexts(variant, !sameSections),
      map: (key) => key,
    },
    { base: hookTexts(base), variant: hookTexts(variant), map: (key) => key },
  ];
  const parts: ChangedPart[] = [];
  for (const group of groups) {
    const claimed = new Set<Candidate>();
    // The base candidates by kind and variant key, in base order: one lookup per variant candidate (a
    // harness of many tools has thousands of parameter descriptions).
    const byKey = new Map<string, Candidate[]>();
    for (const source of group.base) {
      const key = `${source.kind}\u0001${group.map(source.key)}`;
      const sources = byKey.get(key);
      if (sources) sources.push(source);
      else byKey.set(key, [source]);
    }
    for (const candidate of group.variant) {
      const sources = byKey.get(`${candidate.kind}\u0001${candidate.key}`) ?? [];
      for (const source of sources) claimed.add(source);
      const inBaseNames = inBaseNamesOf(
        candidate.side.text,
        candidate.side.path,
        candidate.template,
        symbols,
        back,
      );
      if (sources.length === 0) {
        parts.push({ kind: candidate.kind, variant: candidate.side, inBaseNames, renameOnly: false });
        continue;
      }
      const first = sources[0] as Candidate;
      const baseSide: PartSide =
        sources.length === 1
          ? first.side
          : {
              label: sources.map((source) => source.side.label).join(' + '),
              path: first.side.path,
              text: sources.map((source) => source.side.text).join('\n\n'),
            };
      if (baseSide.text === candidate.side.text) continue;
      parts.push({
        kind: candidate.kind,
        base: baseSide,
        variant: candidate.side,
        inBaseNames,
        renameOnly: inBaseNames === baseSide.text,
      });
    }
    for (const source of group.base)
      if (!claimed.has(source)) parts.push({ kind: source.kind, base: source.side, renameOnly: false });
  }
  return parts;
}
