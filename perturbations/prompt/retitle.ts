// perturbations/prompt/retitle.ts — retitles prompt sections from a synonym table; ids, order and templates stay.

import { z } from 'zod';
import {
  affectedCount,
  defineOperator,
  findMentions,
  harnessSymbols,
  identityRelabel,
} from '../../src/kit/index.js';
import { isChinese, promptVariantHolds } from './_template-scan.js';

/**
 * Common section titles (lower case) and other ways to say them: each says what the title says, no narrower
 * and no wider (a "Compliance" section is not "Legal rules", "Format" may not be the reply's, "Examples"
 * need not be exchanges).
 */
const englishSynonyms: Readonly<Record<string, readonly string[]>> = {
  persona: ['Who you are', 'Role', 'Your role', 'Identity'],
  role: ['Who you are', 'Persona', 'Your role'],
  'your role': ['Role', 'Who you are', 'Persona'],
  identity: ['Who you are', 'Persona', 'Role'],
  'who you are': ['Persona', 'Role', 'Your role'],
  tools: ['Available tools', 'Tool guide', 'Tooling'],
  'tool guide': ['Tools', 'Available tools', 'How to use tools'],
  'available tools': ['Tools', 'Tool guide'],
  skills: ['Available skills', 'Skill catalog', 'Skill list'],
  'skill catalog': ['Skills', 'Available skills', 'Skill list'],
  'available skills': ['Skills', 'Skill catalog'],
  'output format': ['Reply format', 'Response format', 'How to reply'],
  'reply format': ['Output format', 'Response format'],
  'response format': ['Output format', 'Reply format'],
  compliance: ['Compliance rules', 'Compliance requirements'],
  rules: ['Guidelines', 'Ground rules', 'Rules to follow'],
  guidelines: ['Rules', 'Ground rules'],
  constraints: ['Limits', 'Restrictions'],
  context: ['Background', 'Situation'],
  background: ['Context', 'Situation'],
  'room state': ['Room status', 'Live room', 'Current room'],
  customer: ['Customer details', 'Who you are talking to'],
  passenger: ['Passenger details', 'Traveller'],
  user: ['User details', 'Who you are talking to'],
  instructions: ['How to work', 'Directions'],
  task: ['Your task', 'Goal'],
  goal: ['Objective', 'Your task'],
  examples: ['Worked examples', 'Sample cases'],
  safety: ['Safety rules', 'Staying safe'],
  style: ['Tone of voice', 'Writing style'],
  tone: ['Tone of voice', 'Style'],
  language: ['Languages', 'Language use'],
  policies: ['Policy', 'Rules to follow'],
  history: ['Conversation so far', 'Recent history'],
  notes: ['Remarks', 'Things to note'],
};

const chineseSynonyms: Readonly<Record<string, readonly string[]>> = {
  角色: ['身份', '你的角色'],
  人设: ['角色设定', '身份'],
  身份: ['角色', '人设'],
  工具: ['可用工具', '工具说明'],
  工具说明: ['工具', '可用工具'],
  技能: ['可用技能', '技能列表'],
  技能列表: ['技能', '可用技能'],
  输出格式: ['回复格式', '输出要求'],
  回复格式: ['输出格式', '回复要求'],
  规则: ['规范', '行为准则'],
  合规: ['合规要求', '合规规则'],
  注意事项: ['注意', '须知'],
  背景: ['上下文', '背景信息'],
  直播间状态: ['直播间信息', '房间状态'],
  任务: ['你的任务', '目标'],
  示例: ['例子', '样例'],
  语气: ['说话风格', '风格'],
};

const titleCase = (title: string) =>
  title.replace(/(^|\s)(\p{Ll})/gu, (_, space: string, letter: string) => space + letter.toUpperCase());
const sentenceCase = (title: string) => {
  const lower = title.toLowerCase();
  return lower.charAt(0).toUpperCase() + lower.slice(1);
};

/** Alternatives for one title; a title that names an identifier is only wrapped, never re-cased. */
function alternatives(title: string, namesIdentifier: boolean): string[] {
  const key = title.trim().toLowerCase();
  if (isChinese(title)) return [...(chineseSynonyms[title.trim()] ?? [])];
  const listed = namesIdentifier ? undefined : englishSynonyms[key];
  if (listed) return [...listed];
  if (namesIdentifier) return [`Section: ${title}`];
  // Titles in scripts without Latin letters only get case variants (which may be none).
  if (!/\p{Script=Latin}/u.test(title)) return [titleCase(title), sentenceCase(title)];
  return [`Section: ${title}`, titleCase(title), sentenceCase(title)];
}

/**
 * Retitles prompt sections from a built-in synonym table ("Persona" → "Who you are", "Tools" →
 * "Available tools"), with generic variants for other titles ("Section: <title>", Title Case, Sentence
 * case); Chinese titles get Chinese alternatives or stay. Severity is the share of sections retitled.
 *
 * @example
 * const applied = await applyOperator(retitle, harness, { rng: 'seed', severity: 1 });
 * applied.harness.prompt.sections.map((section) => section.title) // e.g. ['Who you are', 'Skill list', …]
 */
export const retitle = defineOperator({
  id: 'prompt/retitle',
  // 2: synonyms that narrowed a title ("Legal rules" for Compliance, "Reply language") are gone.
  version: 2,
  dimension: 'prompt',
  mode: 'exact',
  description: 'Retitles prompt sections with synonyms; ids, order and templates stay.',
  params: z.object({}),
  apply(harness, { rng, severity, trajectory, run }) {
    const symbols = harnessSymbols(harness);
    const sections = harness.prompt.sections;
    const titles = new Set(sections.map((section) => section.title));
    const options = sections.map((section, index) => {
      const mentions = findMentions(
        { path: ['prompt', 'sections', index, 'title'], text: section.title },
        symbols,
      );
      return [...new Set(alternatives(section.title, mentions.length > 0))].filter(
        (title) => title.trim() === title && title.length > 0 && !titles.has(title),
      );
    });
    const candidates = sections.flatMap((_, index) => ((options[index]?.length ?? 0) > 0 ? [index] : []));
    if (candidates.length === 0) return { skip: 'no section title has an alternative' };
    const chosen = rng.fork('sections').sample(candidates, affectedCount(severity, candidates.length));
    const used = new Set(titles);
    const next = sections.map((section, index) => {
      if (!chosen.includes(index)) return section;
      const free = (options[index] ?? []).filter((title) => !used.has(title));
      if (free.length === 0) return section;
      const title = rng.fork(`title/${index}`).pick(free);
      used.add(title);
      return { ...section, title };
    });
    const variant = { ...harness, prompt: { ...harness.prompt, sections: next } };
    if (!promptVariantHolds(harness, variant, run, trajectory))
      return { skip: 'the retitled prompt does not render' };
    return { harness: variant, relabel: identityRelabel };
  },
});
