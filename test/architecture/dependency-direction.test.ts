// Reads every import of the source tree and fails when an arrow points the wrong way (DESIGN.md §4):
// harness ← trajectory ← augment ← kit ← perturbations ← {testing, bench, review, runtime} ← pipeline ← adapters ← cli,
// with the scenarios (src/scenarios/*) beside the pipeline: they import the runtime and below, and only the
// CLI imports them. The learner and the demo (src/learner, src/demo) sit at the pipeline's level too, and
// nothing below the CLI imports them. The core and the public index hold no live-stream names.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/run-cli.js';

const layers: Record<string, number> = {
  'src/harness': 0,
  'src/trajectory': 1,
  'src/augment': 2,
  // The operator author's kit: built on the core, below the operators that use it.
  'src/kit': 2.5,
  perturbations: 3,
  'src/testing': 4,
  'src/bench': 4,
  // The review page of augmented rows: reads rows and harnesses, renders HTML.
  'src/review': 4,
  // Drift: reads a harness's history and describes each edit with the augment core.
  'src/drift': 4,
  'src/runtime': 4,
  'src/pipeline': 5,
  'src/scenarios': 5,
  'src/learner': 5,
  'src/demo': 5,
  'src/adapters': 6,
  'src/cli': 7,
};
/** Modules that touch the network; only adapters and the CLI may import them. */
const networkModules = /^(node:)?(http|https|net|tls|dgram|http2)$|^(undici|ws|ioredis|bullmq)$/;

function layerOf(file: string): { name: string; rank: number } | undefined {
  const path = relative(projectRoot, file).split('\\').join('/');
  const match = Object.keys(layers)
    .filter((prefix) => path === prefix || path.startsWith(`${prefix}/`))
    .sort((a, b) => b.length - a.length)[0];
  return match === undefined ? undefined : { name: match, rank: layers[match] as number };
}

function sourceFiles(folder: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(folder).sort();
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(entry) ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [
    ...text.matchAll(
      /^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm,
    ),
  ].map((match) => (match[1] ?? match[2]) as string);
}

const files = [...sourceFiles(join(projectRoot, 'src')), ...sourceFiles(join(projectRoot, 'perturbations'))];

describe('dependency direction', () => {
  it('finds the source files', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it('no module imports from a layer above its own', () => {
    const violations: string[] = [];
    for (const file of files) {
      const from = layerOf(file);
      if (!from) continue;
      for (const specifier of importsOf(file)) {
        if (!specifier.startsWith('.')) continue;
        const target = layerOf(resolve(dirname(file), specifier));
        if (target && target.rank > from.rank)
          violations.push(`${relative(projectRoot, file)} → ${specifier} (${target.name})`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('nothing below the CLI imports the learner or the demo, except each other', () => {
    const violations: string[] = [];
    for (const file of files) {
      const from = layerOf(file);
      if (!from || from.name === 'src/cli' || from.name === 'src/learner' || from.name === 'src/demo')
        continue;
      for (const specifier of importsOf(file)) {
        const target = specifier.startsWith('.') ? layerOf(resolve(dirname(file), specifier)) : undefined;
        if (target && (target.name === 'src/learner' || target.name === 'src/demo'))
          violations.push(`${relative(projectRoot, file)} → ${specifier}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('the core never imports the network', () => {
    const violations: string[] = [];
    for (const file of files) {
      const from = layerOf(file);
      if (!from || from.rank >= layers['src/adapters']!) continue;
      for (const specifier of importsOf(file)) {
        if (networkModules.test(specifier)) violations.push(`${relative(projectRoot, file)} → ${specifier}`);
      }
      if (/\bfetch\(/.test(readFileSync(file, 'utf8')))
        violations.push(`${relative(projectRoot, file)} calls fetch`);
    }
    expect(violations).toEqual([]);
  });

  it('the public index never exports an adapter or the CLI', () => {
    const index = importsOf(join(projectRoot, 'src/index.ts'));
    expect(index.filter((specifier) => /\/(adapters|cli)\//.test(specifier))).toEqual([]);
  });

  it('only the CLI imports a scenario', () => {
    const violations: string[] = [];
    for (const file of files) {
      const from = layerOf(file);
      if (from?.name === 'src/scenarios' || from?.name === 'src/cli') continue;
      for (const specifier of importsOf(file)) {
        if (!specifier.startsWith('.')) continue;
        if (layerOf(resolve(dirname(file), specifier))?.name === 'src/scenarios')
          violations.push(`${relative(projectRoot, file)} → ${specifier}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('a scenario imports no other scenario', () => {
    const scenarioOf = (file: string) =>
      /^src\/scenarios\/([^/]+)\//.exec(relative(projectRoot, file).split('\\').join('/'))?.[1];
    const violations: string[] = [];
    for (const file of files) {
      const own = scenarioOf(file);
      if (!own) continue;
      for (const specifier of importsOf(file)) {
        if (!specifier.startsWith('.')) continue;
        const target = scenarioOf(resolve(dirname(file), specifier));
        if (target && target !== own) violations.push(`${relative(projectRoot, file)} → ${specifier}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('the runtime and the public index hold no live-stream names', () => {
    // The shop's tool names, its folder name, and the fixture's constants.
    const shop =
      /get_product_info_by_link_id|get_price_and_coupons|check_stock_and_sizes|recommend_size|get_shipping_info|get_after_sales_policy|get_live_room_state|compare_products|search_catalog|get_promotion_rules|livestream|live[- ]stream|FIXTURE_|danmaku/i;
    const checked = [...sourceFiles(join(projectRoot, 'src/runtime')), join(projectRoot, 'src/index.ts')];
    expect(checked.length).toBeGreaterThan(20);
    const offenders = checked.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          shop.test(line) ? [`${relative(projectRoot, file)}:${index + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(offenders).toEqual([]);
  });

  it('nothing in the source draws from Math.random', () => {
    const offenders = files.filter((file) => /Math\.random/.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
