import { describe, expect, it } from 'vitest';
import { listStyle } from '../../../perturbations/prompt/list-style.js';
import { applyOperator } from '../../../src/augment/operator.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { renderSystemPrompt } from '../../../src/harness/render-prompt.js';
import { checkOperatorLaws } from '../../../src/kit/laws.js';
import { lawCases } from '../../support/law-cases.js';
import { travelContext, travelHarness, travelHarnessInput } from '../../support/travel-harness.js';

/** The travel harness with its skill section written over `{{skillList}}`. */
function withSkillList() {
  const input = travelHarnessInput();
  input.prompt.sections[1] = { ...input.prompt.sections[1]!, template: '{{skillList}}\nLoad one first.' };
  return parseHarness(input);
}

describe('prompt/list-style', () => {
  it('obeys the operator laws', async () => {
    await checkOperatorLaws(listStyle, { cases: await lawCases(), params: [{}, { style: 'json' }] });
  });

  it('changes how the skill list renders at a fixed seed', async () => {
    const applied = await applyOperator(listStyle, withSkillList(), { rng: 'golden', severity: 1 });
    if ('skip' in applied) throw new Error(applied.skip);
    expect(applied.harness.prompt.listStyle).toBe('table');
    expect(renderSystemPrompt(applied.harness, travelContext)).toContain(
      '## Skills\n| name | kind | description |\n|---|---|---|\n| rebooking | reply | Rebook a passenger onto another flight |',
    );
    expect(applied.harness.prompt.sections).toEqual(withSkillList().prompt.sections);
  });

  it('renders YAML when asked', async () => {
    const applied = await applyOperator(listStyle, withSkillList(), { params: { style: 'yaml' } });
    if ('skip' in applied) throw new Error(applied.skip);
    expect(renderSystemPrompt(applied.harness, travelContext)).toContain(
      '## Skills\n- name: rebooking\n  kind: reply\n  description: Rebook a passenger onto another flight\n',
    );
  });

  it('restyles no tool list with a description of several lines, whose own items would run into it', async () => {
    // OpenHands' CodeAct agent, str_replace_editor (All-Hands-AI/OpenHands, MIT): its own bullets and notes.
    const editor =
      'Custom editing tool for viewing, creating and editing files in plain-text format\n* State is persistent across command calls and discussions with the user\n* If `path` is a file, `view` displays the result of applying `cat -n`. If `path` is a directory, `view` lists non-hidden files and directories up to 2 levels deep\n* The `create` command cannot be used if the specified `path` already exists as a file\n* If a `command` generates a long output, it will be truncated and marked with `<response clipped>`\n* The `undo_edit` command will revert the last edit made to the file at `path`\n\nNotes for using the `str_replace` command:\n* The `old_str` parameter should match EXACTLY one or more consecutive lines from the original file. Be mindful of whitespaces!\n* If the `old_str` parameter is not unique in the file, the replacement will not be performed. Make sure to include enough context in `old_str` to make it unique\n* The `new_str` parameter should contain the edited lines that should replace the `old_str`\n';
    const input = travelHarnessInput();
    input.prompt.sections[1] = { ...input.prompt.sections[1]!, template: '{{toolList}}\nCall one first.' };
    input.tools.items[0] = { ...input.tools.items[0]!, description: editor };
    const manual = parseHarness(input);
    const skip = { skip: 'a listed description of several lines would run into the list around it' };
    for (const style of ['bullets', 'numbered', 'table', 'json', 'yaml'] as const) {
      if (style === manual.prompt.listStyle) continue;
      expect(await applyOperator(listStyle, manual, { params: { style } })).toEqual(skip);
    }
    for (const rng of ['a', 'b', 'c', 'd'])
      expect(await applyOperator(listStyle, manual, { rng, severity: 1 })).toEqual(skip);
    // Only the lists a template renders count: the skill list alone can take another style.
    input.prompt.sections[1] = { ...input.prompt.sections[1]!, template: '{{skillList}}\nLoad one first.' };
    const skillsOnly = await applyOperator(listStyle, parseHarness(input), { params: { style: 'table' } });
    expect('skip' in skillsOnly ? skillsOnly.skip : skillsOnly.harness.prompt.listStyle).toBe('table');
  });

  it('never numbers the lists under numbered headings', async () => {
    const input = travelHarnessInput();
    input.prompt.sections[1] = { ...input.prompt.sections[1]!, template: '{{skillList}}\nLoad one first.' };
    input.prompt.headingStyle = 'numbered';
    const numbered = parseHarness(input);
    expect(await applyOperator(listStyle, numbered, { params: { style: 'numbered' } })).toEqual({
      skip: 'a numbered list would run into the numbered headings',
    });
    for (const rng of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) {
      const applied = await applyOperator(listStyle, numbered, { rng, severity: 1 });
      expect('skip' in applied ? undefined : applied.harness.prompt.listStyle).not.toBe('numbered');
    }
  });

  it('skips when no template uses skillList or toolList', async () => {
    const applied = await applyOperator(listStyle, travelHarness(), { rng: 'x', severity: 1 });
    expect(applied).toEqual({ skip: 'no prompt section uses {{skillList}} or {{toolList}}' });
  });

  it('skips when the requested style is already in use', async () => {
    const applied = await applyOperator(listStyle, withSkillList(), { params: { style: 'bullets' } });
    expect(applied).toEqual({ skip: 'the list style is already "bullets"' });
  });
  // Audit 15: BFCL's default system prompt (ShishirPatil/gorilla @6ea57973 (Apache-2.0),
  // bfcl_eval/constants/default_prompts.py, _DEFAULT_SYSTEM_PROMPT, `{functions}` written `{{toolList}}`)
  // introduces the tools "in JSON format"; the list became a table, YAML or a numbered list.
  const bfclPrompt = `You are an expert in composing functions. You are given a question and a set of possible functions. Based on the question, you will need to make one or more function/tool calls to achieve the purpose.
If none of the functions can be used, point it out. If the given question lacks the parameters required by the function, also point it out.
You should only return the function calls in your response.

If you decide to invoke any of the function(s), you MUST put it in the format of [func_name1(params_name1=params_value1, params_name2=params_value2...), func_name2(params)]
You SHOULD NOT include any other text in the response.

At each turn, you should try your best to complete the tasks requested by the user within the current turn. Continue to output functions to call until you have fulfilled the user's request to the best of your ability. Once you have no more functions to call, the system will consider the current turn complete and proceed to the next turn or task.

Here is a list of functions in JSON format that you can invoke.
{{toolList}}
`;
  const withTemplate = (template: string, style?: 'json') => {
    const input = travelHarnessInput();
    input.prompt.sections[1] = { ...input.prompt.sections[1]!, template };
    if (style) input.prompt.listStyle = style;
    return parseHarness(input);
  };

  it('restyles a list whose lead-in names its format only to that format (BFCL: "in JSON format")', async () => {
    const bfcl = withTemplate(bfclPrompt);
    expect(bfcl.prompt.listStyle).toBe('bullets');
    for (const rng of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) {
      const applied = await applyOperator(listStyle, bfcl, { rng, severity: 1 });
      expect('skip' in applied ? applied.skip : applied.harness.prompt.listStyle).toBe('json');
    }
    for (const style of ['numbered', 'table', 'yaml'] as const)
      expect(await applyOperator(listStyle, bfcl, { params: { style } })).toEqual({
        skip: `the text before a rendered list names another format than "${style}"`,
      });
    // Already in the format its text names: no other style fits.
    expect(
      await applyOperator(listStyle, withTemplate(bfclPrompt, 'json'), { rng: 'a', severity: 1 }),
    ).toEqual({
      skip: 'the text before a rendered list names its format, and no other style fits it',
    });
    // Only the lead-in counts: a format named in another paragraph says nothing of the list.
    const elsewhere = withTemplate(
      bfclPrompt.replace(' in JSON format', '').replace('You should only', 'Reply in JSON. You should only'),
    );
    const styles = new Set<string>();
    for (const rng of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) {
      const applied = await applyOperator(listStyle, elsewhere, { rng, severity: 1 });
      if (!('skip' in applied)) styles.add(applied.harness.prompt.listStyle);
    }
    expect(styles.size).toBeGreaterThan(1);
  });
});
