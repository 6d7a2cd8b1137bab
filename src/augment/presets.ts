// Named policies. They refer to operators by id, so they are plain data, checked when compiled.
import type { PolicyInput } from './policy.js';

const allSkillIds = [
  'skill-ids/rename',
  'skill-ids/namespace',
  'skill-ids/reorder',
  'skill-ids/rename-loader',
];
const allSkillContent = [
  'skill-content/reorder-rules',
  'skill-content/list-style',
  'skill-content/paraphrase-lexicon',
  'skill-content/preamble',
  'skill-content/merge',
];
const allTools = [
  { op: 'tools/rename', weight: 3 },
  { op: 'tools/rename-parameters', weight: 2 },
  'tools/reorder-properties',
  'tools/reword-descriptions',
  'tools/add-distractors',
  'tools/drop-unused',
  'tools/reorder',
  'tools/add-optional-parameters',
  'tools/nest-arguments',
];
const allPrompt = [
  'prompt/reorder-sections',
  'prompt/heading-style',
  'prompt/list-style',
  'prompt/retitle',
  'prompt/merge-sections',
  'prompt/split-section',
  'prompt/whitespace-noise',
];
const allHooks = [
  'hooks/vary-budgets',
  'hooks/reword-feedback',
  'hooks/reorder',
  'hooks/disable-untriggered',
  'hooks/inject-recovery',
];

/**
 * The built-in policies:
 * - `identity`: no perturbation (the original harness, certified);
 * - `hat`: all five HSA dimensions, each with probability 0.8, medium severity (Harness-Aware Training);
 * - `tools-only`: Hammer-style masking of tool and parameter names;
 * - `rotbench-slight|medium|heavy`: tool-noise levels after RoTBench, each applying all of its operators
 *   (names, descriptions, parameters, schema style); `rotbench-union`: one operator of any level per variant.
 *
 * @example
 * const plan = compilePolicy(parsePolicy(presets.hat), createRegistry(builtinOperators));
 */
export const presets: Readonly<Record<string, PolicyInput>> = Object.freeze({
  identity: { name: 'identity', description: 'No perturbation.', dimensions: {} },
  hat: {
    name: 'hat',
    description: 'Harness-State Augmentation over all five dimensions.',
    severity: 'medium',
    dimensions: {
      'skill-ids': { probability: 0.8, operators: allSkillIds },
      'skill-content': { probability: 0.8, operators: allSkillContent },
      tools: { probability: 0.8, operators: allTools },
      prompt: { probability: 0.8, operators: allPrompt },
      hooks: { probability: 0.8, operators: allHooks },
    },
  },
  'tools-only': {
    name: 'tools-only',
    description: 'Hammer-style function masking: opaque tool names, renamed parameters.',
    severity: 'heavy',
    dimensions: {
      tools: {
        operators: [
          { op: 'tools/rename', weight: 3, params: { style: 'opaque' } },
          { op: 'tools/rename-parameters', weight: 1 },
        ],
      },
    },
  },
  'rotbench-slight': {
    name: 'rotbench-slight',
    description:
      'Slight tool noise, all combined: a quarter of the tools renamed (synonyms, another case, an opaque code or a phrase, drawn per tool), descriptions reworded, registry reordered.',
    severity: 'slight',
    dimensions: {
      tools: { combine: 'all', operators: ['tools/rename', 'tools/reword-descriptions', 'tools/reorder'] },
    },
  },
  'rotbench-medium': {
    name: 'rotbench-medium',
    description:
      'Medium tool noise, all combined: opaque names, reworded descriptions, reordered properties.',
    severity: 'medium',
    dimensions: {
      tools: {
        combine: 'all',
        operators: [
          { op: 'tools/rename', params: { style: 'opaque' } },
          'tools/reword-descriptions',
          'tools/reorder-properties',
        ],
      },
    },
  },
  'rotbench-heavy': {
    name: 'rotbench-heavy',
    description:
      'Heavy tool noise, all combined: opaque names, renamed and added parameters, another schema style, nested arguments.',
    severity: 'heavy',
    dimensions: {
      tools: {
        combine: 'all',
        operators: [
          { op: 'tools/rename', params: { style: 'opaque' } },
          'tools/rename-parameters',
          'tools/add-optional-parameters',
          'tools/change-schema-style',
          'tools/nest-arguments',
        ],
      },
    },
  },
  'rotbench-union': {
    name: 'rotbench-union',
    description:
      'One tool-noise operator per variant, drawn from any RoTBench level at that level’s severity.',
    severity: 'medium',
    dimensions: {
      tools: {
        operators: [
          { op: 'tools/rename', severity: 'slight' },
          { op: 'tools/reword-descriptions', severity: 'slight' },
          { op: 'tools/rename', params: { style: 'opaque' }, severity: 'medium' },
          { op: 'tools/reorder-properties', severity: 'medium' },
          { op: 'tools/rename-parameters', severity: 'heavy' },
          { op: 'tools/add-optional-parameters', severity: 'heavy' },
          { op: 'tools/nest-arguments', severity: 'heavy' },
        ],
      },
    },
  },
});
