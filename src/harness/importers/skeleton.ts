// A minimal valid harness around imported tools and skills, to start from or to test them in.
import { HarnessAugmentError } from '../issues.js';
import { safeParseHarness } from '../parse-harness.js';
import type { Harness, HarnessInput, Skill, Tool } from '../schema.js';

/** What `skeletonHarness` builds a harness around. */
export interface SkeletonOptions {
  /** The harness id. */
  id: string;
  /** One line on what the agent is for; shown in the `role` section when given. */
  description?: string;
  tools?: Tool[];
  skills?: Skill[];
}

/**
 * The three prompt sections of a skeleton: a pinned role, the skill list with the loader, the tool list.
 * The lists are `{{skillList}}` and `{{toolList}}`, which the prompt operators restyle.
 */
export const skeletonSections: NonNullable<HarnessInput['prompt']['sections']> = [
  {
    id: 'role',
    title: 'Role',
    template:
      'You are the assistant of {{harness.id}}.{{#if harness.description}} {{harness.description}}{{/if}}',
    pinned: true,
  },
  {
    id: 'skills',
    title: 'Skills',
    // `{{skillList}}` and `{{toolList}}` render in the prompt's list style, so `prompt/list-style` applies.
    template:
      '{{skillList}}\n' +
      'Before you follow a skill, call `{{loader.tool}}` with `{{loader.argument}}` set to its id to read its rules.',
  },
  {
    id: 'tools',
    title: 'Tools',
    template: '{{toolList}}',
  },
];

/**
 * Whether a skeleton section belongs in a harness with this many skills and tools: the `skills` section only
 * with skills ("call `load_skill`" would name a tool a harness without skills does not offer), the `tools`
 * section only with tools, the others always.
 *
 * @example
 * skeletonSectionApplies('skills', { skills: 0, tools: 13 }) // false
 */
export function skeletonSectionApplies(
  sectionId: string,
  counts: { skills: number; tools: number },
): boolean {
  if (sectionId === 'skills') return counts.skills > 0;
  if (sectionId === 'tools') return counts.tools > 0;
  return true;
}

/**
 * Builds a minimal valid harness around imported tools and skills: every part at version "1", the default
 * skill loader, no hooks, and a prompt of a pinned `role` section, a `skills` section (when there are skills)
 * and a `tools` section (when there are tools). Throws a HarnessAugmentError listing every issue when the
 * parts do not make a valid harness.
 *
 * @example
 * const harness = skeletonHarness({ id: 'files', tools: importMcpTools(toolsListResponse) });
 */
export function skeletonHarness(options: SkeletonOptions): Harness {
  const input: HarnessInput = {
    id: options.id,
    ...(options.description === undefined ? {} : { description: options.description }),
    skills: { version: '1', items: structuredClone(options.skills ?? []) },
    hooks: { version: '1', items: [] },
    prompt: {
      version: '1',
      sections: structuredClone(
        skeletonSections.filter((section) =>
          skeletonSectionApplies(section.id, {
            skills: options.skills?.length ?? 0,
            tools: options.tools?.length ?? 0,
          }),
        ),
      ),
    },
    tools: { version: '1', items: structuredClone(options.tools ?? []) },
  };
  const result = safeParseHarness(input);
  if (result.success) return result.data;
  throw new HarnessAugmentError(
    `cannot build a harness around these parts: ${result.issues.length} issue(s)`,
    {
      issues: result.issues,
    },
  );
}
