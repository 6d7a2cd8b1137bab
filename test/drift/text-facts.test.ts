// The facts drift compares to tell a rewording from a change: the protected content of the one rule
// (protectedContentSpans), Handlebars placeholders and polarity words.
import { describe, expect, it } from 'vitest';
import { protectedContentSpans } from '../../src/augment/protected-content.js';
import { sameFacts, textFacts } from '../../src/drift/text-facts.js';

describe('drift text facts', () => {
  it('hold every protected span of the one rule, with placeholders and polarity words', () => {
    const text =
      'Quote "¥219" for {{item}} within 48 hours; see docs/faq.md, never `get_price` <!-- pin -->.';
    const facts = textFacts(text);
    for (const span of protectedContentSpans(text)) expect(facts).toContain(`${span.kind}:${span.text}`);
    expect(facts).toContain('placeholder:{{item}}');
    expect(facts).toContain('word:never');
  });

  it('a rewording keeps them; a quote, path, marker or currency of another form is a change', () => {
    expect(
      sameFacts('Reply within 48 hours, never "free".', 'Never say "free"; answer within 48 Hours.'),
    ).toBe(true);
    expect(sameFacts('Send {{price}} now.', 'Now send {{ price }}.')).toBe(false);
    // Each of these was read as a rewording before the rule was shared: single and CJK quotes, paths, pin
    // markers and currency signs were not facts of their own.
    expect(sameFacts("Call it 'VIP' service.", "Call it 'premium' service.")).toBe(false);
    expect(sameFacts('Use the 《说明书》 wording.', 'Use the 《手册》 wording.')).toBe(false);
    expect(sameFacts('Read reference/forms.md first.', 'Read reference/terms.md first.')).toBe(false);
    expect(sameFacts('Steps in this order (order-sensitive):', 'Steps in this order:')).toBe(false);
    expect(sameFacts('It costs ¥199.', 'It costs $199.')).toBe(false);
  });
});
