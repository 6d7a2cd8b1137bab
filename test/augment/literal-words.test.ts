import { describe, expect, it } from 'vitest';
import { namesQuotedAsWords } from '../../src/augment/literal-words.js';

describe('namesQuotedAsWords', () => {
  it('reads the quoted words after a cue of matching, within its sentence', () => {
    const names = ['azure_devops', 'deploy-now', 'get_status', 'refund'];
    expect(
      namesQuotedAsWords(names, [
        'Load when a message mentions "azure_devops" or "azure".',
        'Run it when the user types \'deploy-now\'. Then call "get_status".',
        'If the reply contains “refund”, escalate.',
      ]),
    ).toEqual(new Set(['azure_devops', 'deploy-now', 'refund']));
  });

  it('leaves a quoted name that no cue introduces, or one past the end of the cue’s sentence', () => {
    expect(
      namesQuotedAsWords(
        ['get_status', 'azure_devops'],
        ['Call "get_status" first.', 'The user mentions an outage.\n"azure_devops" holds the token.'],
      ),
    ).toEqual(new Set());
  });
});
