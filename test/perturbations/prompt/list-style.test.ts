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
});
