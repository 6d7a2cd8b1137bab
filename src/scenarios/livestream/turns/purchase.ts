// The purchase turn: how to buy a link, an order already placed (when it ships), and buying several.
import type { Kit, TurnSpec } from '../kit.js';
import type { Product } from '../world.js';
import { call } from './gold-calls.js';
import { deliveryPromises, GENERIC } from './mistakes.js';
import { yen } from './reply-text.js';
import { pickVariant, variantName } from './stock.js';
import {
  as,
  type InfoResult,
  type PriceResult,
  type ShippingResult,
  type StockResult,
} from './tool-results.js';

export function purchaseTurn(
  k: Kit,
  p: Product,
  mode: 'how_to' | 'ordered' | 'several',
  options: { followUp?: boolean } = {},
): TurnSpec {
  const ref = options.followUp ? k.t('it', '') : k.ref(p);
  if (mode === 'how_to') {
    const row =
      k.chance(0.7) && p.options.length > 0
        ? pickVariant(k, p, k.pick(['in_stock', 'in_stock', 'low'] as const))
        : undefined;
    const vname = row ? variantName(k, row) : '';
    const viewer = row
      ? k.t(
          k.pick([`want ${ref} in ${vname}, how do I buy?`, `I'll take ${ref} in ${vname}! how to order?`]),
          k.pick([`${ref}要${vname}怎么买`, `${vname}怎么拍`]),
        )
      : k.t(
          k.pick([`I'll take ${ref}! how do I order?`, `how do I buy ${ref}?`]),
          k.pick([`${ref}怎么下单`, `怎么拍${ref}`]),
        );
    const variant: Record<string, string> = {};
    if (row) {
      variant.color = row.option;
      if (row.size) variant.size = row.size;
    }
    return {
      viewer: viewer.replace(/\s+/g, ' ').trim(),
      intents: ['purchase'],
      skills: ['purchase_push'],
      steps: row
        ? [[call('check_stock_and_sizes', { link_id: p.link_id, variant })]]
        : [[call('get_price_and_coupons', { link_id: p.link_id })]],
      compose: (results) => {
        if (row) {
          const v = as<StockResult>(results[0]?.[0]).variants[0]!;
          const low =
            v.status === 'low' ? k.t(` Only ${v.stock} left in ${vname}.`, `，${vname}只剩${v.stock}件`) : '';
          return {
            candidates: k.t(
              [
                `Tap the cart, open link ${p.link_id}, pick ${vname}, claim the coupon, then pay!${low}`,
                `Open link ${p.link_id} in the cart, choose ${vname} and pay.${low}`,
              ],
              [
                `点购物车打开${p.link_id}号，选${vname}，先领券再付款就好${low}～`,
                `${p.link_id}号选${vname}下单就行${low}～`,
              ],
            ),
          };
        }
        const r = as<PriceResult>(results[0]?.[0]);
        return {
          candidates: k.t(
            r.total < r.live_price
              ? [
                  `Tap the cart, open link ${p.link_id}, claim the coupon and pay: ${yen(r.total)} after coupons.`,
                  `Open link ${p.link_id} in the cart and pay, ${yen(r.total)} after coupons.`,
                ]
              : [
                  `Tap the cart, open link ${p.link_id} and pay: ${yen(r.live_price)} live tonight.`,
                  `Open link ${p.link_id} in the cart and pay, ${yen(r.live_price)} tonight.`,
                ],
            r.total < r.live_price
              ? [
                  `点购物车打开${p.link_id}号，领券后到手¥${r.total}～`,
                  `${p.link_id}号直接拍，到手¥${r.total}～`,
                ]
              : [
                  `点购物车打开${p.link_id}号直接拍，直播价¥${r.live_price}～`,
                  `${p.link_id}号直接拍，¥${r.live_price}～`,
                ],
          ),
        };
      },
      slips: GENERIC,
    };
  }
  if (mode === 'ordered') {
    return {
      viewer: k.t(
        k.say(
          p,
          options.followUp ?? false,
          options.followUp ? [] : [`just ordered ${ref}!`, `bought ${ref}, when does it ship?`],
          ['ordered! 🎉', 'bought it, when does it ship?'],
        ),
        k.say(p, options.followUp ?? false, options.followUp ? [] : [`已拍${ref}`, `${ref}拍了 什么时候发`], [
          '拍了拍了',
          '下单了 什么时候发货',
        ]),
      ),
      intents: ['purchase', 'shipping'],
      skills: ['purchase_push', 'shipping_eta'],
      steps: [[call('get_shipping_info', { link_id: p.link_id })]],
      compose: (results) => {
        const r = as<ShippingResult>(results[0]?.[0]);
        const when = r.ships === 'today' ? k.t('today', '今天') : k.t('tomorrow', '明天');
        return {
          candidates: k.t(
            [
              `Thank you! 🎉 It ships ${when} from ${r.ship_from.en} by ${r.carrier.en}, usually ${r.eta_days_min}-${r.eta_days_max} days.`,
              `Thanks for your order! Ships ${when} by ${r.carrier.en}.`,
            ],
            [
              `谢谢支持🎉${when}从${r.ship_from.zh}发${r.carrier.zh}，一般${r.eta_days_min}-${r.eta_days_max}天到～`,
              `感谢下单！${when}发${r.carrier.zh}～`,
            ],
          ),
          slips: { delivery: deliveryPromises(k, r) },
        };
      },
      slips: ['delivery', ...GENERIC],
    };
  }
  const q = Math.min(p.limit_per_order + (k.chance(0.3) ? 1 : 0), 5);
  return {
    viewer: k
      .t(
        k.pick([`can I buy ${q} of ${ref}?`, `I want ${q} of ${ref} for my family, ok?`]),
        k.pick([`${ref}能买${q}件吗`, `想拍${q}个${ref}可以吗`]),
      )
      .replace(/\s+/g, ' ')
      .trim(),
    intents: ['purchase'],
    skills: ['purchase_push'],
    steps: [[call('get_product_info_by_link_id', { link_id: p.link_id })]],
    compose: (results) => {
      const info = as<InfoResult>(results[0]?.[0]);
      const ok = q <= info.limit_per_order;
      return {
        candidates: ok
          ? k.t(
              [
                `Sure! Set the quantity to ${q} in link ${p.link_id}; the limit is ${info.limit_per_order} per order.`,
                `Yes, up to ${info.limit_per_order} per order!`,
              ],
              [
                `可以的～${p.link_id}号数量选${q}，每单限购${info.limit_per_order}件`,
                `可以，每单限购${info.limit_per_order}件～`,
              ],
            )
          : k.t(
              [
                `Link ${p.link_id} is limited to ${info.limit_per_order} per order, so ${info.limit_per_order} in one order.`,
                `The limit is ${info.limit_per_order} per order, sorry!`,
              ],
              [`${p.link_id}号每单限购${info.limit_per_order}件哦～`, `每单限购${info.limit_per_order}件～`],
            ),
      };
    },
    slips: GENERIC,
  };
}
