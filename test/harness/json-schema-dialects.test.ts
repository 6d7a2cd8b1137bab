// Schema dialects: the validator reads `$schema` (draft-07, 2019-09, 2020-12), checks `format`, runs
// `pattern` on a linear-time engine; invalid arguments under 2020-12 keywords are reported by
// `hsa validate` and never certified.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { certify } from '../../src/augment/certificate.js';
import {
  compileJsonSchema,
  schemaDialect,
  validateAgainstSchema,
} from '../../src/harness/json-schema-validator.js';
import { toChatCompletionTools } from '../../src/harness/offered-tools.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import { renderSystemPrompt } from '../../src/harness/render-prompt.js';
import { identityRelabel } from '../../src/trajectory/relabel.js';
import type { Trajectory } from '../../src/trajectory/schema.js';
import { validateTrajectory } from '../../src/trajectory/validate-trajectory.js';
import { runCli } from '../support/run-cli.js';
import { call, result, travelContext, travelHarnessInput } from '../support/travel-harness.js';

const draft2020 = 'https://json-schema.org/draft/2020-12/schema';
/** Modelled on a current MCP server's inputSchema: 2020-12, $defs/$ref, enums, arrays of objects, formats. */
const bookingSchema = {
  $schema: draft2020,
  type: 'object',
  $defs: {
    passenger: {
      type: 'object',
      properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' } },
      required: ['name'],
    },
  },
  properties: {
    route: {
      type: 'array',
      prefixItems: [
        { type: 'string', pattern: '^[A-Z]{3}$' },
        { type: 'string', pattern: '^[A-Z]{3}$' },
      ],
      items: false,
    },
    date: { type: 'string', format: 'date' },
    passengers: { type: 'array', items: { $ref: '#/$defs/passenger' }, minItems: 1 },
    cabin: { type: 'string', enum: ['economy', 'business'] },
    callback_url: { type: 'string', format: 'uri' },
    seat: { type: 'string' },
    seat_class: { type: 'string' },
  },
  dependentRequired: { seat: ['seat_class'] },
  required: ['route', 'passengers'],
  unevaluatedProperties: false,
};
const valid = {
  route: ['SIN', 'LHR'],
  date: '2026-12-24',
  passengers: [{ name: 'Ada', email: 'ada@example.com' }],
};

describe('schemaDialect', () => {
  it('reads $schema, and reads keywords of later drafts as 2020-12', () => {
    expect(schemaDialect({ $schema: draft2020 })).toBe('2020-12');
    expect(schemaDialect({ $schema: 'https://json-schema.org/draft/2019-09/schema' })).toBe('2019-09');
    expect(schemaDialect({ $schema: 'http://json-schema.org/draft-07/schema#' })).toBe('draft-07');
    expect(schemaDialect({ type: 'object' })).toBe('draft-07');
    expect(schemaDialect({ type: 'array', prefixItems: [{ type: 'string' }] })).toBe('2020-12');
  });
});

describe('validateAgainstSchema in the schema dialect', () => {
  it('accepts valid arguments', () => {
    expect(validateAgainstSchema(bookingSchema, valid)).toEqual([]);
  });

  it('reports prefixItems, dependentRequired, unevaluatedProperties and formats', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...valid, route: ['SIN', 'lhr'] }, '/route/1 must match pattern'],
      [{ ...valid, route: ['SIN', 'LHR', 'JFK'] }, '/route must NOT have more than 2 items'],
      [{ ...valid, seat: '12A' }, 'must have property seat_class when property seat is present'],
      [{ ...valid, coupon: 'X' }, 'must NOT have unevaluated properties ("coupon")'],
      [{ ...valid, date: '24/12/2026' }, '/date must match format "date"'],
      [{ ...valid, callback_url: 'not a uri' }, '/callback_url must match format "uri"'],
      [
        { ...valid, passengers: [{ name: 'Ada', email: 'ada-at-example' }] },
        '/passengers/0/email must match format "email"',
      ],
      [{ ...valid, cabin: 'first' }, '/cabin must be equal to one of the allowed values'],
    ];
    for (const [value, message] of cases)
      expect(validateAgainstSchema(bookingSchema, value).join('; '), message).toContain(message);
  });

  it('checks ipv4 and date-time formats in draft-07 too', () => {
    const schema = {
      type: 'object',
      properties: { ip: { type: 'string', format: 'ipv4' }, at: { type: 'string', format: 'date-time' } },
    };
    expect(validateAgainstSchema(schema, { ip: '10.0.0.1', at: '2026-12-01T10:00:00Z' })).toEqual([]);
    expect(validateAgainstSchema(schema, { ip: '999.1.1.1', at: 'tomorrow' })).toHaveLength(2);
  });

  it('runs patterns on a linear-time engine: nested quantifiers answer, lookaround is refused', () => {
    const nested = { type: 'string', pattern: '^(a+)+$' };
    expect(validateAgainstSchema(nested, `${'a'.repeat(50_000)}!`)).toEqual(['must match pattern "^(a+)+$"']);
    const lookahead = compileJsonSchema({ type: 'string', pattern: '^(?=a)' });
    expect(lookahead.ok).toBe(false);
  });
});

describe('invalid arguments under 2020-12 are reported and never certified', () => {
  const input = travelHarnessInput();
  input.hooks.items = [];
  input.tools.items = [{ name: 'book_flight', description: 'Book a flight.', parameters: bookingSchema }];
  const harness = parseHarness(input);
  const trajectoryWith = (args: Record<string, unknown>, id: string): Trajectory => ({
    id,
    harness: { id: harness.id },
    context: travelContext,
    tools: toChatCompletionTools(harness),
    messages: [
      { role: 'system', content: renderSystemPrompt(harness, travelContext) },
      { role: 'user', content: 'Book SIN to LHR for Ada.' },
      call('book_flight', args, 'c1'),
      result('c1', { booked: true }),
      { role: 'assistant', content: 'Booked.' },
    ],
  });
  const bad = trajectoryWith({ ...valid, seat: '12A', coupon: 'X', date: 'soon' }, 'bad');

  it('validateTrajectory and certify refuse them', () => {
    expect(validateTrajectory(trajectoryWith(valid, 'good'), harness).valid).toBe(true);
    const validation = validateTrajectory(bad, harness);
    expect(validation.valid).toBe(false);
    const certificate = certify({
      base: harness,
      variant: harness,
      original: bad,
      rewritten: bad,
      relabel: identityRelabel,
    });
    expect(certificate.certified).toBe(false);
  });

  it('hsa validate reports them with exit 1', () => {
    const folder = mkdtempSync(join(tmpdir(), 'hsa-dialects-'));
    const harnessFile = join(folder, 'harness.json');
    const trajectoriesFile = join(folder, 'trajectories.jsonl');
    writeFileSync(harnessFile, JSON.stringify(input));
    writeFileSync(
      trajectoriesFile,
      `${JSON.stringify(trajectoryWith(valid, 'good'))}\n${JSON.stringify(bad)}\n`,
    );
    const run = runCli(['validate', harnessFile, '--trajectories', trajectoriesFile]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('must have property seat_class when property seat is present');
    expect(run.stdout).toContain('unevaluated properties ("coupon")');
    expect(run.stdout).toContain('must match format "date"');
    expect(run.stdout).toContain('2 read, 1 valid, 1 invalid');
  });
});
