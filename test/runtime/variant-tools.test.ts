// variantTools: a backend written against the base harness serves a variant — calls arrive with the base
// tool name, parameter names and argument shape; results come back with the variant's names.
import { describe, expect, it } from 'vitest';
import { renameSymbols } from '../../src/augment/rename-symbols.js';
import type { ToolBackend } from '../../src/runtime/scenario.js';
import type { ToolCallRequest } from '../../src/runtime/tool-runtime.js';
import { variantTools } from '../../src/runtime/variant-tools.js';
import { composeRelabels } from '../../src/trajectory/relabel.js';
import { travelHarness } from '../support/travel-harness.js';

const context = { harness: travelHarness(), signal: new AbortController().signal, callIndex: 0 };

function recording(answer: (request: ToolCallRequest) => string) {
  const received: ToolCallRequest[] = [];
  const backend: ToolBackend = {
    call(request) {
      received.push(request);
      return { content: answer(request) };
    },
  };
  return { backend, received };
}

describe('variantTools', () => {
  it('maps a renamed tool, renamed parameters and nested arguments back, and the result forward', async () => {
    const base = travelHarness();
    const renamed = renameSymbols(base, {
      tools: { find_flights: 'flight_search', hold_seat: 'reserve' },
      parameters: [{ tool: 'find_flights', path: ['origin'], to: 'from_airport' }],
    });
    const relabel = composeRelabels(renamed.relabel, {
      steps: [{ type: 'nest_arguments', tool: 'flight_search', under: 'query' }],
    });
    const { backend, received } = recording(() => JSON.stringify({ next: 'call `hold_seat` to keep it' }));
    const tools = variantTools(backend, relabel);
    const raw = '{"query":{"from_airport":"LIS","destination":"OPO","date":"2026-12-01"}}';
    const outcome = await tools.call(
      { id: 'c1', name: 'flight_search', arguments: JSON.parse(raw), rawArguments: raw },
      context,
    );
    expect(received).toEqual([
      {
        id: 'c1',
        name: 'find_flights',
        arguments: { origin: 'LIS', destination: 'OPO', date: '2026-12-01' },
        rawArguments: '{"origin":"LIS","destination":"OPO","date":"2026-12-01"}',
      },
    ]);
    // The mention of a renamed tool in the result follows the rename, as in a certified carry-over.
    expect(outcome.content).toBe(JSON.stringify({ next: 'call `reserve` to keep it' }));
  });

  it('is the backend itself under the base harness (no relabel, or an empty one)', () => {
    const { backend } = recording(() => '{}');
    expect(variantTools(backend)).toBe(backend);
    expect(variantTools(backend, { steps: [] })).toBe(backend);
  });

  it('keeps an error outcome and its kind', async () => {
    const { toolError } = await import('../../src/runtime/tool-runtime.js');
    const failing: ToolBackend = { call: () => toolError('permission_denied', 'no') };
    const renamed = renameSymbols(travelHarness(), { tools: { hold_seat: 'reserve' } });
    const outcome = await variantTools(failing, renamed.relabel).call(
      { id: 'c', name: 'reserve', arguments: {}, rawArguments: '{}' },
      context,
    );
    expect(outcome.error).toBe('permission_denied');
  });
});
