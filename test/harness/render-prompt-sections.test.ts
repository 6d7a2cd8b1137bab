// A section renders once per content it reads: the parts of the harness its template reads (by object) and,
// where it reads the context at all (a path, `@root`, `this`, a block over it), the context's content.
// Counted renders, and every prompt equals the one a fresh harness object (or the template engine) renders.
import { describe, expect, it } from 'vitest';
import { parseHarness } from '../../src/harness/parse-harness.js';
import { renderSystemPrompt, sectionTemplateRenders, templateData } from '../../src/harness/render-prompt.js';
import { renderTemplate } from '../../src/harness/template-engine.js';
import { travelContext, travelHarnessInput } from '../support/travel-harness.js';

/** The prompt, or the error it fails with (strict templates refuse a missing value). */
function outcome(
  harness: Parameters<typeof renderSystemPrompt>[0],
  context: Record<string, unknown>,
): string {
  try {
    return renderSystemPrompt(harness, context);
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

/** The one-section prompt straight from the template engine. */
function uncached(
  harness: Parameters<typeof renderSystemPrompt>[0],
  context: Record<string, unknown>,
): string {
  const [section] = harness.prompt.sections;
  try {
    return `## Probe\n${renderTemplate(section?.template ?? '', templateData(harness, context)).trim()}`;
  } catch (error) {
    return `error: prompt section "probe" failed to render: ${(error as Error).message.split('\n')[0]}`;
  }
}

const other = { passenger: { name: 'Li Wei', flight: 'CA 981' } };
// Contexts no other test file renders: the section bodies are cached by template and context content
// across files of a worker, so the counts below start from contexts new to that cache.
const fileTag = import.meta.url.split('/').at(-1) as string;
const ownContext = { passenger: { name: `Ana Souza (${fileTag})`, flight: 'HA 212' } };
const ownOther = { passenger: { name: `Li Wei (${fileTag})`, flight: 'CA 981' } };

/** The travel harness under an id no other test renders (`role` reads the id: bodies are kept by content). */
let harnessCount = 0;
const ownHarness = () =>
  parseHarness({ ...travelHarnessInput(), id: `travel-sections-${++harnessCount}-${Date.now()}` });

describe('renderSystemPrompt by section', () => {
  it('renders a section that does not read the context once per harness object', () => {
    const harness = ownHarness();
    const sections = harness.prompt.sections.length;
    const before = sectionTemplateRenders();
    const first = renderSystemPrompt(harness, ownContext);
    expect(sectionTemplateRenders() - before).toBe(sections);
    const second = renderSystemPrompt(harness, ownOther);
    // Only `passenger` reads the context.
    expect(sectionTemplateRenders() - before).toBe(sections + 1);
    expect(first).toBe(renderSystemPrompt(parseHarness(structuredClone(harness)), ownContext));
    expect(second).toBe(renderSystemPrompt(parseHarness(structuredClone(harness)), ownOther));
    expect(second).toContain(`Passenger: Li Wei (${fileTag}) on CA 981`);
  });

  it('renders a section that reads only the context once per context content, under any harness', () => {
    const first = ownHarness();
    const second = ownHarness();
    const context = { passenger: { name: `Sam Okafor (${fileTag})`, flight: 'TP 1' } };
    const before = sectionTemplateRenders();
    renderSystemPrompt(first, context);
    expect(sectionTemplateRenders() - before).toBe(first.prompt.sections.length);
    // Another harness object: its three harness-only sections, not `passenger` again (same context content).
    const prompt = renderSystemPrompt(second, {
      passenger: { name: `Sam Okafor (${fileTag})`, flight: 'TP 1' },
    });
    expect(sectionTemplateRenders() - before).toBe(2 * first.prompt.sections.length - 1);
    expect(prompt).toContain(`Passenger: Sam Okafor (${fileTag}) on TP 1`);
  });

  it('renders again for each context a section that reads it in any way', () => {
    const templates = [
      '{{json @root.context}}',
      '{{json this}}',
      '{{#with context}}{{passenger.name}}{{/with}}',
      '{{#each context}}{{@key}}={{name}};{{/each}}',
      '{{#each tools}}{{name}} {{../context.passenger.flight}} {{/each}}',
      '{{#if context.passenger}}yes{{/if}}',
      '{{#if context.passenger.name}}{{harness.id}}{{/if}} {{context.passenger.flight}}',
      '{{#if context.passenger.name}}{{toolList}}{{else}}none{{/if}}',
      '{{#each context.passenger}}{{@key}}{{/each}}{{#each skills}}{{id}}{{/each}}',
    ];
    for (const template of templates) {
      const input = travelHarnessInput();
      const harness = parseHarness({
        ...input,
        prompt: { ...input.prompt, sections: [{ id: 'probe', title: 'Probe', template }] },
      });
      const fresh = () =>
        parseHarness({
          ...input,
          prompt: { ...input.prompt, sections: [{ id: 'probe', title: 'Probe', template }] },
        });
      const renamed = parseHarness({
        ...input,
        id: 'another-harness',
        prompt: { ...input.prompt, sections: [{ id: 'probe', title: 'Probe', template }] },
      });
      const renamedFresh = () =>
        parseHarness({
          ...input,
          id: 'another-harness',
          prompt: { ...input.prompt, sections: [{ id: 'probe', title: 'Probe', template }] },
        });
      const contexts = [travelContext, other, { passenger: {} }, { passenger: { flight: 'X 1' } }];
      for (const context of contexts) {
        expect(outcome(harness, context), template).toBe(outcome(fresh(), context));
        expect(outcome(renamed, context), template).toBe(outcome(renamedFresh(), context));
        // And as the template engine renders it, with no cache of the prompt's in between.
        expect(outcome(harness, context), template).toBe(uncached(harness, context));
        expect(outcome(renamed, context), template).toBe(uncached(renamed, context));
      }
    }
  });

  it('renders again only the sections that read a part the harness changed', () => {
    const harness = ownHarness();
    const context = { passenger: { name: `Noor Haddad (${fileTag})`, flight: 'EK 9' } };
    const probe = (template: string) => ({ id: 'hooks_probe', title: 'Hooks', template });
    const withHooksSection = parseHarness({
      ...harness,
      prompt: {
        ...harness.prompt,
        sections: [...harness.prompt.sections, probe('{{#each hooks}}{{id}} {{/each}}')],
      },
    });
    // The same harness with its first hook turned off: a new hooks part, every other part the same objects.
    const hooksOff = {
      ...withHooksSection,
      hooks: {
        ...withHooksSection.hooks,
        items: withHooksSection.hooks.items.map((hook, index) =>
          index === 0 ? { ...hook, enabled: false } : hook,
        ),
      },
    };
    const before = sectionTemplateRenders();
    const base = renderSystemPrompt(withHooksSection, context);
    expect(sectionTemplateRenders() - before).toBe(withHooksSection.prompt.sections.length);
    const variant = renderSystemPrompt(hooksOff, context);
    // Only the section that reads the hooks renders again.
    expect(sectionTemplateRenders() - before).toBe(withHooksSection.prompt.sections.length + 1);
    expect(variant).toBe(renderSystemPrompt(parseHarness(structuredClone(hooksOff)), context));
    expect(variant).not.toBe(base);
  });

  it('reports a context that a section cannot render, after other contexts rendered', () => {
    const harness = parseHarness(travelHarnessInput());
    renderSystemPrompt(harness, travelContext);
    expect(() => renderSystemPrompt(harness, {})).toThrow(/prompt section "passenger" failed to render/);
    expect(renderSystemPrompt(harness, other)).toContain('Li Wei');
  });
});
