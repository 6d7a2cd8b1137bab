// `--scenario livestream`: the bundled live-stream shop. Its data is the `catalog.json` beside the harness
// file (as in fixtures/livestream/), else the bundled fixtures/livestream/catalog.json.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  bundledShopCatalog,
  createLivestreamScenario,
  loadShopCatalog,
} from '../../scenarios/livestream/index.js';
import type { ScenarioLoader } from '../scenario-loader.js';

/**
 * @example
 * const scenario = await loadLivestreamScenario({ harness, harnessPath: 'fixtures/livestream/harness.yaml' });
 */
export const loadLivestreamScenario: ScenarioLoader = async (input) => {
  const beside = join(dirname(resolve(input.cwd ?? process.cwd(), input.harnessPath)), 'catalog.json');
  return createLivestreamScenario({
    catalog: existsSync(beside) ? loadShopCatalog(beside) : bundledShopCatalog(),
  });
};
