// Which task-changing changes of a real edit touch one bench item, and why. A change touches an item when the
// item uses what changed (its gold calls the tool, loads the skill), or when it changes what the model reads
// to choose for ANY request: an added tool or skill, a tool's or skill's own description rewritten with
// other facts, the prompt, the hooks. The real history of GitHub's MCP server shows why the second rule is
// needed: when `search_pull_requests` was added, `search_issues` was scoped to issues in the same commit, so
// an item that found pull requests through `search_issues` had a stale key although it called no new tool.
// The user may vouch that an added or redescribed tool or skill is unrelated to the items (`unrelated`).
import type { ChangeKind } from '../drift/change-kinds.js';
import type { DriftChange } from '../drift/describe-edit.js';
import { sameFacts } from '../drift/text-facts.js';
import type { Harness } from '../harness/schema.js';
import { type Relabel, relabelMessages } from '../trajectory/relabel.js';
import type { Message } from '../trajectory/schema.js';
import type { BenchItem } from './schema.js';

/** The tools an item's gold and answer key call and the skills they load, in both versions' vocabularies. */
export interface ItemUses {
  tools: ReadonlySet<string>;
  skills: ReadonlySet<string>;
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function collect(
  messages: readonly Message[],
  loader: Harness['skills']['loader'],
  into: { tools: Set<string>; skills: Set<string> },
) {
  for (const message of messages) {
    if (message.role !== 'assistant' || !message.tool_calls) continue;
    for (const call of message.tool_calls) {
      into.tools.add(call.function.name);
      if (call.function.name !== loader.tool) continue;
      const skill = parseObject(call.function.arguments)[loader.argument];
      if (typeof skill === 'string') into.skills.add(skill);
    }
  }
}

/**
 * What an item uses: every call of its gold (earlier turns included: they are its input) and of its answer
 * key, read under `before` and, moved by the edit's relabel, under `after`.
 *
 * @example
 * itemUses(item, v1, v2, edit.relabel).tools.has('search_code')
 */
export function itemUses(item: BenchItem, before: Harness, after: Harness, relabel: Relabel): ItemUses {
  const uses = { tools: new Set<string>(), skills: new Set<string>() };
  collect(item.gold.messages, before.skills.loader, uses);
  for (const call of item.expect.toolCalls) uses.tools.add(call.name);
  for (const skill of item.expect.skills) uses.skills.add(skill);
  if (item.expect.skills.length > 0) uses.tools.add(before.skills.loader.tool);
  collect(relabelMessages(item.gold.messages, relabel, 'forward'), after.skills.loader, uses);
  return uses;
}

/** How a task-changing kind reaches items: through what they call, what they load, or every item. */
type Reach = 'calls' | 'loads' | 'chooses' | 'every';

const reachOf: Partial<Record<ChangeKind, Reach>> = {
  'tool-removed': 'calls',
  'parameter-added': 'calls',
  'parameter-removed': 'calls',
  'parameter-retyped': 'calls',
  'schema-changed': 'calls',
  'tool-description-changed': 'chooses',
  'skill-removed': 'loads',
  'rules-added': 'loads',
  'rules-removed': 'loads',
  'skill-kind-changed': 'loads',
  'rules-changed': 'chooses',
  'tool-added': 'chooses',
  'skill-added': 'chooses',
};

/** The tool a change's subject names (`tool` or `tool.path…`). */
const toolOf = (subject: string) => subject.split('.')[0] as string;

/** A tool's own description (the loader's for the loader), in a harness, or undefined when it has none. */
function toolDescription(harness: Harness, name: string): string | undefined {
  if (name === harness.skills.loader.tool) return harness.skills.loader.description;
  return harness.tools.items.find((tool) => tool.name === name)?.description;
}

const skillDescription = (harness: Harness, id: string) =>
  harness.skills.items.find((skill) => skill.id === id)?.description;

/** Whether an own description differs in its facts between the versions (a rewording keeps them). */
function descriptionRewritten(before: string | undefined, after: string | undefined): boolean {
  return before !== undefined && after !== undefined && !sameFacts(before, after);
}

export interface TouchOptions {
  /** Added or redescribed tools and skills the user vouches no item's request needs. */
  unrelated?: ReadonlySet<string>;
}

/** The older name of a renamed tool or skill (subjects of changes after a rename carry the new name). */
function olderName(changes: readonly DriftChange[], kind: 'tool-renamed' | 'skill-renamed', name: string) {
  const map = changes.find((change) => change.kind === kind)?.map ?? {};
  return Object.entries(map).find(([, to]) => to === name)?.[0] ?? name;
}

/**
 * The reasons the task-changing changes of an edit touch an item (empty: none does). Subjects are matched
 * in both versions' vocabularies.
 *
 * @example
 * touchReasons(edit.changes, itemUses(item, v1, v2, edit.relabel), v1, v2)
 * // ['tool-removed get_issue: the item calls it']
 */
export function touchReasons(
  changes: readonly DriftChange[],
  uses: ItemUses,
  before: Harness,
  after: Harness,
  options: TouchOptions = {},
): string[] {
  const unrelated = options.unrelated ?? new Set<string>();
  // What the item uses first: the reason a reader looks for.
  const reasons: string[] = [];
  const elsewhere: string[] = [];
  for (const change of changes) {
    if (change.taskPreserving) continue;
    const reach = reachOf[change.kind] ?? 'every';
    if (reach === 'every') {
      elsewhere.push(
        `${change.kind} ${change.subjects.join(', ')}: ${change.dimension === 'prompt' ? 'the prompt' : 'a hook'} applies to every request`,
      );
      continue;
    }
    for (const subject of change.subjects) {
      const isSkill = change.dimension === 'skill-ids' || change.dimension === 'skill-content';
      const name = isSkill ? subject : toolOf(subject);
      const used = isSkill ? uses.skills.has(name) : uses.tools.has(name);
      if (used) {
        reasons.push(`${change.kind} ${subject}: the item ${isSkill ? 'loads' : 'calls'} ${name}`);
        continue;
      }
      if (reach !== 'chooses' || unrelated.has(name)) continue;
      if (change.kind === 'tool-added' || change.kind === 'skill-added') {
        elsewhere.push(
          `${change.kind} ${name}: a new ${isSkill ? 'skill' : 'tool'} may answer any request (vouch with --unrelated ${name} if no item needs it)`,
        );
        continue;
      }
      // Rewritten parameter descriptions or skill bodies are read only by whoever calls or loads them; the
      // tool's or skill's own description is read to choose one, for every request.
      const rewritten = isSkill
        ? descriptionRewritten(
            skillDescription(before, olderName(changes, 'skill-renamed', name)),
            skillDescription(after, name),
          )
        : descriptionRewritten(
            toolDescription(before, olderName(changes, 'tool-renamed', name)),
            toolDescription(after, name),
          );
      if (rewritten)
        elsewhere.push(
          `${change.kind} ${name}: its description, read to choose a ${isSkill ? 'skill' : 'tool'} for any request, was rewritten with other facts (vouch with --unrelated ${name} if no item depends on it)`,
        );
    }
  }
  return [...new Set([...reasons, ...elsewhere])];
}
