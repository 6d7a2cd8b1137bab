// The product-facts turn: one spec of a link (material, fit, care, what is in the box…).
import type { Kit, TurnSpec } from '../kit.js';
import type { Product } from '../world.js';
import { call } from './gold-calls.js';
import { GENERIC } from './mistakes.js';
import { cap } from './reply-text.js';
import { as, type InfoResult } from './tool-results.js';

export function itemTurn(k: Kit, p: Product, key: string, options: { followUp?: boolean } = {}): TurnSpec {
  const ref = options.followUp ? k.t('it', '') : k.ref(p);
  const { en, zh } = k.phrases.spec_questions[key]!;
  const viewer = k.pick(k.t(en, zh)).replace('{ref}', ref).replace(/\s+/g, ' ').trim();
  return {
    viewer,
    intents: ['item_qa'],
    skills: ['item_qa'],
    steps: [[call('get_product_info_by_link_id', { link_id: p.link_id })]],
    compose: (results) => {
      const info = as<InfoResult>(results[0]?.[0]);
      const spec = info.specs[key]!;
      return {
        candidates: k.t(
          k.pick([
            [`${cap(info.short_name.en)} (link ${p.link_id}): ${spec.en}.`, `${cap(spec.en)}.`],
            [`Good question! ${cap(spec.en)}.`, `${cap(spec.en)}.`],
            [`${cap(spec.en)}. It suits ${info.suits.en}.`, `${cap(spec.en)}.`],
          ]),
          k.pick([
            [`${info.short_name.zh}：${spec.zh}～`, `${spec.zh}～`],
            [`亲，${p.link_id}号${spec.zh}哦`, `${spec.zh}～`],
            [`${spec.zh}，适合${info.suits.zh}～`, `${spec.zh}～`],
          ]),
        ),
      };
    },
    slips: GENERIC,
  };
}
