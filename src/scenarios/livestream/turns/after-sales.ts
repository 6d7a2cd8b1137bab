// The after-sales turn: returns, exchanges, damaged items, warranty and price protection.
import type { Kit, ReplyPlan, TurnSpec } from '../kit.js';
import type { Product } from '../world.js';
import { call } from './gold-calls.js';
import { GENERIC } from './mistakes.js';
import { cap } from './reply-text.js';
import { type AfterSalesResult, as } from './tool-results.js';

export type AfterSalesIssue =
  | 'no_reason_return'
  | 'exchange_size'
  | 'damaged_or_wrong'
  | 'quality_warranty'
  | 'price_protection';

export function afterSalesTurn(
  k: Kit,
  p: Product,
  issue: AfterSalesIssue,
  options: { followUp?: boolean } = {},
): TurnSpec {
  const ref = options.followUp ? k.t('it', '') : k.ref(p);
  const it = options.followUp ? k.t('it', '') : ref;
  const questions: Record<AfterSalesIssue, [string[], string[]]> = {
    no_reason_return: [
      [
        `can I return ${it} if I don't like it?`,
        `7-day no-reason return on ${it}?`,
        `is return shipping free for ${it}?`,
        `what if I change my mind about ${it}?`,
      ],
      [`${it}支持七天无理由吗`, `${it}不喜欢能退吗`, `${it}有运费险吗`, `七天无理由吗`, `有运费险吗`],
    ],
    exchange_size: [
      [`if the size is wrong can I exchange ${it}?`, `can I swap sizes on ${it}?`],
      [`${it}不合适能换码吗`, `尺码不对能换吗`],
    ],
    damaged_or_wrong: [
      [
        `what if ${it} arrives broken?`,
        `what if you send the wrong color?`,
        `what if ${it} is damaged in delivery?`,
      ],
      [`${it}收到坏了怎么办`, `发错货怎么办`, `快递压坏了怎么办`],
    ],
    quality_warranty: [
      [`warranty on ${it}?`, `how long is the warranty for ${it}?`, `what if ${it} stops working?`],
      [`${it}保修多久`, `${it}坏了包修吗`, `${it}有质保吗`],
    ],
    price_protection: [
      [`if ${it} drops in price after I buy?`, `do you refund the difference if ${it} gets cheaper?`],
      [`${it}降价了能补差价吗`, `买了降价怎么办`],
    ],
  };
  const [en, zh] = questions[issue];
  const named = (list: string[]) => list.filter((text) => ref !== '' && text.includes(ref));
  const bare = (list: string[]) => list.filter((text) => ref === '' || !text.includes(ref));
  return {
    viewer: k.t(
      k.say(p, options.followUp ?? false, named(en), bare(en)),
      k.say(p, options.followUp ?? false, named(zh), bare(zh)),
    ),
    intents: ['after_sales'],
    skills: ['after_sales'],
    steps: [[call('get_after_sales_policy', { link_id: p.link_id, issue_type: issue })]],
    compose: (results) => afterSalesReply(k, issue, as<AfterSalesResult>(results[0]?.[0])),
    slips: GENERIC,
  };
}

function afterSalesReply(k: Kit, issue: AfterSalesIssue, r: AfterSalesResult): ReplyPlan {
  const days = r.no_reason_return_days;
  switch (issue) {
    case 'no_reason_return': {
      const insEn = r.return_shipping_insurance
        ? ' Shipping insurance covers the return postage.'
        : ' Return postage is not covered.';
      const insZh = r.return_shipping_insurance ? '，还送运费险～' : '，退货运费需自理～';
      return {
        candidates: k.t(
          [
            `Yes, ${days}-day no-reason returns: ${r.conditions.en}.${insEn}`,
            `${days}-day no-reason returns (${r.conditions.en}).${insEn}`,
            `${days}-day no-reason returns: ${r.conditions.en}.`,
          ],
          [`支持${days}天无理由退货，需${r.conditions.zh}${insZh}`, `${days}天无理由：${r.conditions.zh}～`],
        ),
      };
    }
    case 'exchange_size':
      return {
        candidates: k.t(
          [`${cap(r.exchange!.en)}. Just apply in My Orders 👍`, `${cap(r.exchange!.en)}.`],
          [`${r.exchange!.zh}，在"我的订单"申请就行～`, `${r.exchange!.zh}～`],
        ),
      };
    case 'damaged_or_wrong':
      return {
        candidates: k.t(
          [
            `So sorry if that happens! Contact customer service in My Orders with photos within ${r.report_within_hours} hours for a refund or free replacement.`,
            `Send photos to customer service via My Orders within ${r.report_within_hours} hours: refund or free replacement.`,
          ],
          [
            `遇到这种情况很抱歉！${r.report_within_hours}小时内在"我的订单"联系客服并附照片，退款或免费补发～`,
            `${r.report_within_hours}小时内拍照联系客服，退款或补发～`,
          ],
        ),
      };
    case 'quality_warranty':
      return {
        candidates:
          (r.warranty_months ?? 0) > 0
            ? k.t(
                [
                  `${r.warranty_months}-month warranty, and ${r.quality!.en}.`,
                  `${r.warranty_months}-month warranty; ${r.quality!.en}.`,
                  `${r.warranty_months}-month warranty 👍`,
                ],
                [`质保${r.warranty_months}个月，${r.quality!.zh}～`, `质保${r.warranty_months}个月哦～`],
              )
            : k.t(
                [`${cap(r.quality!.en)}; no separate warranty beyond that.`, `${cap(r.quality!.en)}.`],
                [`${r.quality!.zh}，没有额外保修哦～`, `${r.quality!.zh}～`],
              ),
      };
    case 'price_protection':
      return {
        candidates: k.t(
          [
            `${r.price_protection_days}-day price protection: if the live price drops, claim the difference in My Orders (flash-sale prices excluded).`,
            `${r.price_protection_days}-day price protection; claim the difference in My Orders.`,
          ],
          [
            `有${r.price_protection_days}天价保，降价可在"我的订单"申请差价（秒杀价除外）～`,
            `${r.price_protection_days}天价保哦～`,
          ],
        ),
      };
  }
}
