// A user's chat template runs with limits: range() size, interpreter steps, string size. Each limit stops
// the render with an error naming it; a template within the limits renders as @huggingface/jinja renders it.
import { Template } from '@huggingface/jinja';
import { describe, expect, it } from 'vitest';
import { renderBounded, templateLimits } from '../../../src/adapters/trainer/bounded-template.js';

const render = (source: string, items: Record<string, unknown> = {}) =>
  renderBounded(new Template(source), items);

describe('renderBounded', () => {
  it('renders as Template.render does within the limits, range() included', () => {
    const source =
      '{% for m in messages %}[{{ m.role }}] {{ m.content }}{% endfor %}{% for i in range(1, 7, 2) %}{{ i }}{% endfor %}|{{ range(3) | length }}';
    const items = {
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'yo' },
      ],
    };
    expect(render(source, items)).toBe(new Template(source).render(items));
    expect(render(source, items)).toBe('[user] hi[assistant] yo135|3');
    expect(render('{% for i in range(5, 0, -2) %}{{ i }}{% endfor %}')).toBe('531');
  });

  it('range(1000000000) is refused before it is built', () => {
    expect(() => render('{% for i in range(1000000000) %}x{% endfor %}')).toThrow(
      `template stopped: range() of more than ${templateLimits.rangeLength} items`,
    );
  });

  it('nested loops stop at the step limit', () => {
    // A small step budget and a long clock, so that the step limit is the one met.
    const limits = { ...templateLimits, steps: 20_000, timeMs: 3_600_000 };
    const template = new Template(
      '{% for a in range(1000) %}{% for b in range(1000) %}{% endfor %}{% endfor %}',
    );
    expect(() => renderBounded(template, {}, limits)).toThrow('template stopped: more than 20000 steps');
  });

  it('a string that doubles each round stops at the size limit', () => {
    expect(() =>
      render(
        "{% set ns = namespace(s='x') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s }}",
      ),
    ).toThrow(`template stopped: it built more than ${templateLimits.outputCharacters} characters`);
  });

  it('the limits apply only inside renderBounded', () => {
    // The same interpreter outside a bounded render: no step budget (a 300,000-step loop renders).
    const template = new Template(
      '{% for a in range(600) %}{% for b in range(500) %}{% endfor %}{% endfor %}ok',
    );
    expect(template.render({})).toBe('ok');
  });
});
