// Every YAML text the library writes reads back identically with a YAML 1.1 reader (and a 1.2 one).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { renderAxolotlConfig } from '../../src/adapters/trainer/axolotl.js';
import { serialize } from '../../src/cli/io.js';
import { renderSkillMarkdown } from '../../src/harness/importers/agent-skills.js';
import { loadHarnessFile, parseHarness } from '../../src/harness/parse-harness.js';
import { renderSystemPrompt } from '../../src/harness/render-prompt.js';
import { stringifyYaml } from '../../src/harness/yaml-text.js';
import { travelContext, travelHarnessInput } from '../support/travel-harness.js';

/** Strings a YAML 1.1 reader turns into booleans, nulls, numbers, dates or sexagesimals when written plain. */
const yaml11Traps = [
  'yes',
  'no',
  'on',
  'off',
  'y',
  'n',
  'Y',
  'N',
  'Yes',
  'NO',
  'On',
  'OFF',
  'true',
  'False',
  '~',
  'null',
  'Null',
  '0755',
  '0o17',
  '0x1F',
  '0b101',
  '1:20',
  '190:20:30',
  '1_000',
  '.inf',
  '-.Inf',
  '.nan',
  '2001-12-14',
  '2001-12-14T21:59:43.10Z',
  '1e3',
  '+12',
  '12.5',
  '<<',
  '=',
  '',
];
const readsBack = (text: string, value: unknown) => {
  expect(YAML.parse(text, { version: '1.1' })).toEqual(value);
  expect(YAML.parse(text)).toEqual(value);
};

describe('stringifyYaml', () => {
  it('quotes every YAML 1.1 trap, as values and as keys', () => {
    const value = {
      enum: yaml11Traps,
      ...Object.fromEntries(yaml11Traps.filter(Boolean).map((trap) => [trap, trap])),
    };
    const text = stringifyYaml(value);
    expect(text).toContain('- "yes"');
    expect(text).toContain('"no": "no"');
    readsBack(text, value);
  });

  it('reads back identically under 1.1 and 1.2 for any JSON value (property)', () => {
    const string = fc.oneof(
      fc.constantFrom(...yaml11Traps),
      fc.string({ maxLength: 12 }),
      fc.stringMatching(/^[0-9:._+-]{1,8}$/),
    );
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        string,
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(string, tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        readsBack(stringifyYaml(value), value);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the YAML the library writes', () => {
  const input = travelHarnessInput();
  input.tools.items[0] = {
    ...(input.tools.items[0] as NonNullable<(typeof input.tools.items)[0]>),
    parameters: {
      type: 'object',
      properties: {
        answer: { type: 'string', enum: ['yes', 'no', 'on', 'off', 'y', 'n', '~', '0755', '1:20'] },
      },
    },
  };
  input.prompt.listStyle = 'yaml';
  input.prompt.sections[1] = { id: 'skills', title: 'Skills', template: '{{skillList}}' };
  input.skills.items[0] = {
    ...(input.skills.items[0] as NonNullable<(typeof input.skills.items)[0]>),
    description: 'yes',
  };
  const harness = parseHarness(input);

  it('harness files (hsa import, hsa export, …) read back under YAML 1.1', async () => {
    readsBack(serialize(harness, 'out.yaml'), JSON.parse(JSON.stringify(harness)));
    const fixture = await loadHarnessFile('fixtures/livestream/harness.yaml');
    readsBack(serialize(fixture, 'out.yaml'), JSON.parse(JSON.stringify(fixture)));
  });

  it('SKILL.md front matter reads back under YAML 1.1', () => {
    const text = renderSkillMarkdown({ id: 'on', kind: 'reply', description: 'no', body: 'Body.' });
    const frontMatter = text.split('---\n')[1] as string;
    readsBack(frontMatter, { name: 'on', description: 'no' });
  });

  it('the Axolotl config reads back under YAML 1.1', () => {
    const text = renderAxolotlConfig('out/yes/train.jsonl');
    expect(YAML.parse(text, { version: '1.1' })).toEqual(YAML.parse(text));
  });

  it('the YAML list style of the prompt reads back under YAML 1.1', () => {
    const prompt = renderSystemPrompt(harness, travelContext);
    const start = prompt.indexOf('- name: rebooking');
    const block = prompt.slice(
      start,
      prompt.indexOf('\n\n', start) === -1 ? undefined : prompt.indexOf('\n\n', start),
    );
    expect(block).toContain('description: "yes"');
    expect(YAML.parse(block, { version: '1.1' })).toEqual(YAML.parse(block));
  });
});
