// The objection turn: the viewer would rather wait for a later sale or doubts the price; the host answers
// with the price tool's facts.
import type { Kit, TurnSpec } from '../kit.js';
import type { Product } from '../world.js';
import { call } from './gold-calls.js';
import { GENERIC, priceBanned, priceGuesses } from './mistakes.js';
import { priceNow, yen } from './reply-text.js';
import { as, type PriceResult } from './tool-results.js';

export function objectionTurn(
  k: Kit,
  p: Product,
  waiting: boolean,
  options: { followUp?: boolean } = {},
): TurnSpec {
  const ref = options.followUp ? '' : k.ref(p);
  const f = options.followUp ?? false;
  const viewer = waiting
    ? k.t(
        k.say(p, f, f ? [] : [`I'll wait for 11.11 for ${ref}`, `${ref} maybe cheaper next week?`], [
          "I'll wait for 11.11",
          'maybe cheaper next week?',
        ]),
        k.say(p, f, f ? [] : [`${ref}等双11`, `${ref}双11会更便宜吧`], ['等双11再买', '双11会更便宜吧']),
      )
    : k.t(
        k.say(p, f, f ? [] : [`hmm ${ref} is a bit pricey`, `${ref} too expensive for me`], [
          'too expensive 😭',
          "that's a lot of money",
        ]),
        k.say(p, f, f ? [] : [`${ref}贵了点`, `${ref}能便宜点吗`], ['太贵了', '有点贵', '能便宜点吗']),
      );
  return {
    viewer: viewer.replace(/\s+/g, ' ').trim(),
    intents: ['objection'],
    strategy: ['objection_handling'],
    skills: ['price_and_coupons'],
    steps: [
      waiting
        ? [
            call('get_price_and_coupons', { link_id: p.link_id }),
            call('get_promotion_rules', { topic: 'price_protection' }),
          ]
        : [call('get_price_and_coupons', { link_id: p.link_id })],
    ],
    compose: (results) => {
      const r = as<PriceResult>(results[0]?.[0]);
      const guard = waiting
        ? k.t(
            ' And 30-day price protection covers you if the live price drops.',
            '，付款后30天内降价还能申请价保',
          )
        : '';
      const candidates = k.t(
        [
          `Totally fair! Tonight it's ${priceNow(k, r)}, ${yen(r.saving_vs_list)} off the list price.${guard}`,
          `Fair! It's ${priceNow(k, r)} tonight.${guard}`,
          `Fair! It's ${priceNow(k, r)} tonight.`,
        ],
        [
          `理解的～今晚${priceNow(k, r)}，直播价比原价省¥${r.saving_vs_list}${guard}～`,
          `理解～今晚${priceNow(k, r)}${guard}～`,
        ],
      );
      return { candidates, slips: { banned: priceBanned(k, candidates) } };
    },
    slips: [...GENERIC, 'early_guess'],
    earlyGuess: priceGuesses(k, p),
  };
}
