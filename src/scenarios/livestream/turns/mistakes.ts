// The injected mistakes a turn supports: the slips every ordinary tool-using turn supports, and the wrong
// replies some turns offer (price superlatives, a price guessed from the room snapshot, a promised arrival day).
import type { Kit, Slip } from '../kit.js';
import type { Product } from '../world.js';
import { yen } from './reply-text.js';
import type { ShippingResult } from './tool-results.js';

/** Price superlatives, for turns that talk about a price. */
export function priceBanned(k: Kit, candidates: string[]): string[] {
  return candidates.flatMap((text) =>
    k.t(
      [`Lowest price ever! ${text}`, `${text} Lowest price online!`],
      [`全网最低价！${text}`, `${text}史上最低！`],
    ),
  );
}

/** Slips every ordinary tool-using turn supports. */
export const GENERIC: Slip[] = [
  'skill_first',
  'too_long',
  'banned',
  'ungrounded',
  'bad_args',
  'bad_args_twice',
];

/** Replies that quote the room snapshot instead of calling the price tool. */
export function priceGuesses(k: Kit, p: Product): string[] {
  const live = p.live_price;
  return k.t(
    [
      `It's ${yen(live)} tonight!`,
      `It's about ${yen(Math.round(live * 0.9))} after coupons!`,
      `${yen(live)} live, so about ${yen(live - 20)} with the coupon.`,
    ],
    [`现在¥${live}哦～`, `用券后大概¥${Math.round(live * 0.9)}～`, `直播价¥${live}，用券再减¥20左右～`],
  );
}

/** Replies that promise an arrival day, matching what the viewer asked when they named one. */
export function deliveryPromises(
  k: Kit,
  r: ShippingResult,
  deadline?: 'friday' | 'tomorrow' | 'weekend',
): string[] {
  const from = r.ship_from;
  const carrier = r.carrier;
  switch (deadline) {
    case 'friday':
      return k.t(
        [`Yes, guaranteed to arrive by Friday! Ships from ${from.en} by ${carrier.en}.`],
        [`保证周五前到！${from.zh}发${carrier.zh}～`],
      );
    case 'tomorrow':
      return k.t(
        [`Yes! It will definitely arrive tomorrow, ${carrier.en} is fast.`],
        [`放心，保证明天到！${carrier.zh}很快的～`],
      );
    case 'weekend':
      return k.t([`Sure, I promise it gets there by the weekend!`], [`周末前肯定能收到，放心拍！`]);
    default:
      return k.t(
        [
          `It ships from ${from.en} and will definitely arrive tomorrow!`,
          `Order now, I promise it gets there in ${r.eta_days_min} days!`,
        ],
        [`${from.zh}发货，保证明天到～`, `现在下单，一定后天到！`],
      );
  }
}
