// The promotion turn: threshold and product coupons, flash sales, the lucky draw, gifts, multi-buy and
// price protection.
import type { Kit, TurnSpec } from '../kit.js';
import { call } from './gold-calls.js';
import { GENERIC } from './mistakes.js';
import { yen } from './reply-text.js';
import { as, type RoomStateResult } from './tool-results.js';

export type PromoTopic =
  | 'threshold_coupon'
  | 'product_coupon'
  | 'flash_sale'
  | 'lucky_draw'
  | 'gift_with_purchase'
  | 'multi_buy'
  | 'price_protection';

export function promoTurn(k: Kit, topic: PromoTopic): TurnSpec {
  const rules = call('get_promotion_rules', { topic });
  const base = { intents: ['promotion'], skills: ['promo_explain'], slips: GENERIC };
  switch (topic) {
    case 'threshold_coupon': {
      const withState = k.chance(0.5);
      return {
        ...base,
        viewer: k.pick(
          k.t(
            [
              'how does 满300减40 work?',
              'can I stack the coupons?',
              'how do the spend-and-save coupons work?',
              'where do I get the 满减 coupon?',
              'do coupons stack with the live price?',
            ],
            ['满减怎么用', '券能叠加吗', '满300减40是怎么算的', '优惠券在哪领', '满减券还有吗'],
          ),
        ),
        steps: [withState ? [rules, call('get_live_room_state', { include: ['coupons'] })] : [rules]],
        compose: (results) => {
          const state = as<RoomStateResult>(results[0]?.[1]);
          const coupon = state?.coupons?.[0];
          const left = coupon
            ? k.t(
                ` ${coupon.label} has ${coupon.remaining} left right now.`,
                `${coupon.label}现在还剩${coupon.remaining}张～`,
              )
            : '';
          return {
            candidates: k.t(
              [
                `Claim it in the coupon bar first: one 满减 coupon per order, and it stacks with 立减.${left}`,
                `One threshold coupon per order, claimed before paying; e.g. ¥259 + ¥69 = ¥328, so 满300减40 takes ¥40 off.`,
                'One threshold coupon per order, claimed in the coupon bar; it stacks with 立减 coupons.',
              ],
              [
                `先在优惠券栏领券，每单限用一张满减，可叠加单品立减～${left}`,
                '每单限用一张满减券，可叠加立减～比如¥259+¥69=¥328，满300减40立减¥40',
                '先领券再下单，每单一张满减，可叠加立减～',
              ],
            ),
          };
        },
      };
    }
    case 'product_coupon':
      return {
        ...base,
        viewer: k.pick(
          k.t(
            [
              'is the 立减 coupon automatic?',
              'do I need to claim the ¥20 off coupon?',
              'how do product coupons work?',
            ],
            ['立减券要领吗', '立减是自动的吗', '单品券怎么用'],
          ),
        ),
        steps: [[rules]],
        compose: () => ({
          candidates: k.t(
            [
              '立减 coupons apply automatically at checkout, one per order, and stack with one 满减 coupon.',
              'No need to claim: 立减 applies at checkout and stacks with one 满减 coupon.',
            ],
            ['立减券结算时自动抵扣，每单一张，还能叠加一张满减券～', '不用领哦，结算自动减，可叠加满减～'],
          ),
        }),
      };
    case 'flash_sale':
      return {
        ...base,
        viewer: k.pick(
          k.t(
            [
              'when is the next flash sale?',
              'what time is the 秒杀?',
              'how does the flash sale work?',
              'next flash deal when??',
            ],
            ['几点秒杀', '下一场秒杀是什么', '秒杀怎么抢', '今晚还有秒杀吗'],
          ),
        ),
        steps: [[call('get_live_room_state', { include: ['flash_sales'] }), rules]],
        compose: (results) => {
          const flash = as<RoomStateResult>(results[0]?.[0]).flash_sales![0]!;
          const product = k.product(flash.link_id);
          return {
            candidates: k.t(
              [
                `Next flash sale at ${flash.time}: link ${flash.link_id} ${product.short_name.en} at ${yen(flash.flash_price)}, ${flash.units} units, limit 1 per account!`,
                `${flash.time} tonight: link ${flash.link_id} at ${yen(flash.flash_price)}, limit 1 per account. Set a reminder!`,
                `Next flash sale at ${flash.time}, link ${flash.link_id} at ${yen(flash.flash_price)}!`,
              ],
              [
                `下一场秒杀${flash.time}：${flash.link_id}号${product.short_name.zh}秒杀价¥${flash.flash_price}，限量${flash.units}件，每人限购1件～`,
                `${flash.time}开抢${flash.link_id}号，秒杀价¥${flash.flash_price}，记得蹲住！`,
              ],
            ),
          };
        },
      };
    case 'lucky_draw':
      return {
        ...base,
        viewer: k.pick(
          k.t(
            [
              'how do I join the lucky bag?',
              "when's the next giveaway?",
              'how does the lucky draw work?',
              'lucky bag when?',
            ],
            ['福袋怎么参加', '下个福袋几点', '怎么抽奖', '福袋什么时候开'],
          ),
        ),
        steps: [[call('get_live_room_state', { include: ['lucky_draw'] }), rules]],
        compose: (results) => {
          const draw = as<RoomStateResult>(results[0]?.[0]).lucky_draw!;
          return {
            candidates: k.t(
              [
                `Next lucky bag at ${draw.next_at}: follow the room, send "${draw.keyword}" and stay 5 minutes. Prize: ${draw.prize.en}!`,
                `At ${draw.next_at}! Follow, send "${draw.keyword}" and stay 5 minutes to enter.`,
              ],
              [
                `下个福袋${draw.next_at}开：关注直播间，发送口令"${draw.keyword}"并停留5分钟～奖品是${draw.prize.zh}！`,
                `${draw.next_at}开福袋，关注+发"${draw.keyword}"+停留5分钟就能参与～`,
              ],
            ),
          };
        },
      };
    case 'gift_with_purchase':
      return {
        ...base,
        viewer: k.pick(
          k.t(
            ['is there a free gift?', 'any gift with purchase tonight?', 'do I get samples if I buy?'],
            ['有赠品吗', '满多少送小样', '买了送什么'],
          ),
        ),
        steps: [[rules]],
        compose: () => ({
          candidates: k.t(
            [
              'Beauty orders from ¥199 get a 5-piece travel kit while the 500 kits last, counted after coupons.',
              'Yes! Spend ¥199 on beauty (after coupons) for a 5-piece travel kit.',
            ],
            ['美妆实付满¥199送5件旅行装，限量500套，送完即止～', '有的！美妆用券后满¥199送5件旅行装～'],
          ),
        }),
      };
    case 'multi_buy':
      return {
        ...base,
        viewer: k.pick(
          k.t(
            ['any discount if I buy 2?', 'is there a multi-buy deal on snacks?', 'how does 2件9折 work?'],
            ['零食有多件优惠吗', '2件9折怎么算', '买两件有折扣吗'],
          ),
        ),
        steps: [[rules]],
        compose: () => ({
          candidates: k.t(
            [
              '2件9折: 10% off when you buy 2 or more of the same link, and it stacks with 满减.',
              `10% off for 2+ of the same snack link, stacking with 满减. E.g. 2 × ¥89 = ¥178, then ¥160.2.`,
            ],
            [
              '同一链接买2件及以上打9折，还能叠加满减～',
              '2件9折：同链接2件起9折，比如两件¥89共¥178，9折后¥160.2～',
            ],
          ),
        }),
      };
    case 'price_protection':
      return {
        ...base,
        viewer: k.pick(
          k.t(
            [
              'if it gets cheaper on 11.11 do I get the difference back?',
              'price protection?',
              'will it be cheaper next week?',
            ],
            ['双11会不会更便宜 有保价吗', '有价保吗', '降价了能退差价吗'],
          ),
        ),
        steps: [[rules]],
        compose: () => ({
          candidates: k.t(
            [
              "30-day price protection: if this link's live price drops within 30 days, claim the difference in My Orders (flash-sale prices excluded).",
              '30-day price protection: if the live price drops, claim the difference in My Orders. Flash-sale prices excluded.',
            ],
            [
              '有30天价保哦：付款后30天内同链接直播价下降，可在"我的订单"申请差价（秒杀价除外）～',
              '30天价保，降价可申请差价，秒杀价除外～',
            ],
          ),
        }),
      };
  }
}
