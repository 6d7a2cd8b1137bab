// A section whose template reads nothing of the request context renders once per harness object; one that
// reads it (however: a path, `@root`, `this`, a block over it) renders for each context. Counted renders,
// and every prompt equals the one a fresh harness object renders.
import { describe, expect, it } from 'vitest';
import { parseHarness } from '../../src/harness/parse-harness.js';
import { renderSystemPrompt, sectionTemplateRenders } from '../../src/harness/render-prompt.js';
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

const other = { passenger: { name: 'Li Wei', flight: 'CA 981' } };

describe('renderSystemPrompt by section', () => {
  it('renders a section that does not read the context once per harness object', () => {
    const harness = parseHarness(travelHarnessInput());
    const sections = harness.prompt.sections.length;
    const before = sectionTemplateRenders();
    const first = renderSystemPrompt(harness, travelContext);
    expect(sectionTemplateRenders() - before).toBe(sections);
    const second = renderSystemPrompt(harness, other);
    // Only `passenger` reads the context.
    expect(sectionTemplateRenders() - before).toBe(sections + 1);
    expect(first).toBe(renderSystemPrompt(parseHarness(travelHarnessInput()), travelContext));
    expect(second).toBe(renderSystemPrompt(parseHarness(travelHarnessInput()), other));
    expect(second).toContain('Passenger: Li Wei on CA 981');
  });

  it('renders again for each context a section that reads it in any way', () => {
    const templates = [
      '{{json @root.context}}',
      '{{json this}}',
      '{{#with context}}{{passenger.name}}{{/with}}',
      '{{#each context}}{{@key}}={{name}};{{/each}}',
      '{{#each tools}}{{name}} {{../context.passenger.flight}} {{/each}}',
      '{{#if context.passenger}}yes{{/if}}',
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
      const contexts = [travelContext, other, { passenger: {} }];
      for (const context of contexts)
        expect(outcome(harness, context), template).toBe(outcome(fresh(), context));
    }
  });

  it('reports a context that a section cannot render, after other contexts rendered', () => {
    const harness = parseHarness(travelHarnessInput());
    renderSystemPrompt(harness, travelContext);
    expect(() => renderSystemPrompt(harness, {})).toThrow(/prompt section "passenger" failed to render/);
    expect(renderSystemPrompt(harness, other)).toContain('Li Wei');
  });
});
