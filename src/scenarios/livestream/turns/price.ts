// The price turn: the viewer asks what a link costs (one or several), the host calls the price tool and
// quotes the price after coupons.
import type { Kit, TurnSpec } from '../kit.js';
import type { Product } from '../world.js';
import { call } from './gold-calls.js';
import { GENERIC, priceBanned, priceGuesses } from './mistakes.js';
import { cap, yen } from './reply-text.js';
import { as, type PriceResult } from './tool-results.js';

function couponText(k: Kit, r: PriceResult) {
  const parts =
    k.lang === 'en'
      ? [
          r.multi_buy?.label,
          r.product_coupon ? `the ¥${r.product_coupon.amount} coupon` : undefined,
          r.threshold_coupon?.label,
        ]
      : [r.multi_buy?.label, r.product_coupon?.label, r.threshold_coupon?.label];
  const list = parts.filter((part): part is string => part !== undefined);
  return list.length === 0 ? undefined : list.join(k.lang === 'en' ? ' + ' : '+');
}

export function priceCandidates(k: Kit, p: Product, r: PriceResult): string[] {
  const id = p.link_id;
  const short = p.short_name;
  const coupons = couponText(k, r);
  const nt =
    r.next_threshold && r.next_threshold.add_amount <= 0.35 * r.next_threshold.threshold
      ? r.next_threshold
      : null;
  if (r.quantity > 1) {
    return k.t(
      coupons
        ? [
            `${r.quantity} × ${short.en}: ${yen(r.total)} total after ${coupons}, so ${yen(r.unit_price)} each.`,
            `${yen(r.total)} for ${r.quantity} with ${coupons}, ${yen(r.unit_price)} each.`,
          ]
        : [`${r.quantity} × ${short.en} comes to ${yen(r.total)}, ${yen(r.unit_price)} each.`],
      coupons
        ? [
            `${r.quantity}件合计到手¥${r.total}（${coupons}），平均每件¥${r.unit_price}～`,
            `${r.quantity}件到手¥${r.total}，每件¥${r.unit_price}哦`,
          ]
        : [`${r.quantity}件共¥${r.total}，每件¥${r.unit_price}～`],
    );
  }
  if (k.lang === 'en') {
    const unlock = nt
      ? k.pick([
          ` Add ${yen(nt.add_amount)} more for ${nt.label}!`,
          ` ${nt.label} kicks in at ${yen(nt.threshold)}.`,
        ])
      : '';
    return coupons
      ? k.pick([
          [
            `${cap(short.en)} (link ${id}) is ${yen(r.total)} after ${coupons}, list ${yen(r.list_price)}.${unlock}`,
            `Link ${id} is ${yen(r.total)} after ${coupons} (live ${yen(r.live_price)}).${unlock}`,
            `${yen(r.total)} after ${coupons}!`,
          ],
          [
            `Link ${id}: ${yen(r.live_price)} live, ${yen(r.total)} after ${coupons}.${unlock}`,
            `${yen(r.total)} after ${coupons} (live ${yen(r.live_price)}, list ${yen(r.list_price)}).`,
            `${yen(r.total)} after ${coupons}!`,
          ],
        ])
      : [
          `Link ${id} is ${yen(r.live_price)} live, ${yen(r.saving_vs_list)} under the ${yen(r.list_price)} list price.${nt ? ` ${nt.label} applies from ${yen(nt.threshold)} in this category.` : ''}`,
          `${cap(short.en)}: ${yen(r.live_price)} tonight (list ${yen(r.list_price)}), no extra coupon on this link.`,
          `${yen(r.live_price)} tonight, list ${yen(r.list_price)}.`,
        ];
  }
  const unlock = nt ? `，再凑¥${nt.add_amount}可用${nt.label}` : '';
  return coupons
    ? k.pick([
        [
          `${id}号${short.zh}直播价¥${r.live_price}，用${coupons}到手¥${r.total}${unlock}～`,
          `到手¥${r.total}哦，${coupons}自动抵扣～`,
        ],
        [`到手¥${r.total}哦！${coupons}自动抵扣，原价¥${r.list_price}${unlock}～`, `到手¥${r.total}～`],
      ])
    : [
        `${id}号直播价¥${r.live_price}，比原价¥${r.list_price}省¥${r.saving_vs_list}${nt ? `，同品类满¥${nt.threshold}可用${nt.label}` : ''}～`,
        `直播价¥${r.live_price}，原价¥${r.list_price}～`,
      ];
}

export function priceTurn(
  k: Kit,
  p: Product,
  options: { quantity?: number; followUp?: boolean } = {},
): TurnSpec {
  const q = options.quantity ?? 1;
  const ref = options.followUp ? k.t('it', '这个') : k.ref(p);
  const en1 = [
    `how much is ${ref}?`,
    `${ref} price?`,
    `price for ${ref} pls`,
    `what's the final price of ${ref} after coupons?`,
    `is there a coupon for ${ref}?`,
    `how much is ${ref} with the coupon`,
    `${ref} how much 😍`,
    `hi! how much for ${ref}`,
    `how much does ${ref} come to after discounts?`,
  ];
  const zh1 = [
    `${ref}多少钱`,
    `${ref}多少钱呀`,
    `${ref}到手价多少`,
    `${ref}能用券吗`,
    `主播 ${ref}能用券吗`,
    `${ref}有优惠券吗`,
    `${ref}现在什么价`,
  ];
  const enQ = [
    `how much if I buy ${q} of ${ref}?`,
    `${q} of ${ref}, total price?`,
    `price for ${q} pcs of ${ref}?`,
    `buying ${q} of ${ref}, how much altogether?`,
  ];
  const zhQ = [`${ref}买${q}件多少钱`, `${ref}拍${q}个到手多少`, `${ref}${q}件一起买多少钱`];
  const followEn = [`and how much is it?`, `ok and the price after coupons?`, `nice, how much?`];
  const followZh = [`那多少钱呀`, `到手多少`, `用券后多少钱`];
  const viewer = options.followUp
    ? k.pick(k.t(followEn, followZh))
    : k.pick(q === 1 ? k.t(en1, zh1) : k.t(enQ, zhQ));
  return {
    viewer,
    intents: ['price'],
    skills: ['price_and_coupons'],
    steps: [
      [call('get_price_and_coupons', q > 1 ? { link_id: p.link_id, quantity: q } : { link_id: p.link_id })],
    ],
    compose: (results) => {
      const candidates = priceCandidates(k, p, as<PriceResult>(results[0]?.[0]));
      return { candidates, slips: { banned: priceBanned(k, candidates) } };
    },
    slips: [...GENERIC, 'early_guess', 'numbers_exhausted'],
    earlyGuess: priceGuesses(k, p),
  };
}
