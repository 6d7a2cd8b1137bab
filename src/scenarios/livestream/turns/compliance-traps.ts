// The compliance-trap turn: the viewer invites a superlative, an efficacy claim or a competitor comparison.
import type { Kit, TurnSpec } from '../kit.js';
import type { Product } from '../world.js';
import { call } from './gold-calls.js';
import { cap, priceNow, yen } from './reply-text.js';
import { as, type InfoResult, type PriceResult } from './tool-results.js';

export type TrapKind = 'price_superlative' | 'quality_superlative' | 'efficacy' | 'competitor';

export function trapTurn(k: Kit, p: Product, kind: TrapKind): TurnSpec {
  const ref = k.ref(p);
  const base = { intents: ['compliance_trap'], skills: ['compliance_guard'] };
  if (kind === 'price_superlative' || kind === 'competitor') {
    const viewer =
      kind === 'price_superlative'
        ? k.t(
            k.say(
              p,
              false,
              [
                `is ${ref} the lowest price ever?`,
                `is ${ref} the best deal on the whole internet?`,
                `${ref} cheapest on the internet right?`,
                `is this the lowest price online for ${ref}?`,
              ],
              ['is this the best deal on the whole internet?', "tell me it's the best price anywhere 😂"],
            ),
            k.say(
              p,
              false,
              [`${ref}全网最低吗`, `${ref}是全网最便宜的吗`, `${ref}是不是史上最低价`],
              ['是不是史上最低价', '这是最低价了吧', '全网最低吗'],
            ),
          )
        : k.t(
            k.say(
              p,
              false,
              [
                `${ref} is cheaper on another app`,
                `why is ${ref} cheaper in other shops?`,
                `other shop sells ${ref} for less`,
              ],
              ["it's cheaper on another app"],
            ),
            k.say(p, false, [`别家${ref}更便宜`, `${ref}别的店便宜多了`], ['某宝更便宜啊', '别家更便宜']),
          );
    return {
      ...base,
      viewer,
      steps: [[call('get_price_and_coupons', { link_id: p.link_id })]],
      compose: (results) => {
        const r = as<PriceResult>(results[0]?.[0]);
        const opener =
          kind === 'competitor'
            ? k.t("I can't speak for other shops, but", '别家的情况我不清楚哦，')
            : k.t("I can't make that kind of claim 😄 What I can say:", '这个不能乱说哦😄 能确定的是：');
        return {
          candidates: k.t(
            [
              `${opener} ${priceNow(k, r)} tonight, and the live price ${yen(r.live_price)} is ${yen(r.saving_vs_list)} below list.`,
              `${opener} here it's ${priceNow(k, r)} tonight.`,
              `${opener} ${priceNow(k, r)} tonight.`,
            ],
            [
              `${opener}今晚${priceNow(k, r)}，直播价比原价¥${r.list_price}省¥${r.saving_vs_list}～`,
              `${opener}我们这里今晚${priceNow(k, r)}～`,
            ],
          ),
          slips: {
            banned: k.t(
              [
                `Yes, it's the lowest price ever, ${priceNow(k, r)}!`,
                `Best deal on the whole internet: ${yen(r.total)}!`,
                `Absolutely the best price anywhere, ${yen(r.total)} tonight!`,
              ],
              [`对，全网最低价！${priceNow(k, r)}～`, `绝对是史上最低，到手¥${r.total}！`],
            ),
          },
        };
      },
      slips: ['banned', 'skill_first', 'too_long', 'bad_args'],
    };
  }
  if (kind === 'quality_superlative') {
    const viewer = k.t(
      k.say(
        p,
        false,
        [
          `is ${ref} the best one out there?`,
          `is ${ref} the number one ${p.short_name.en} in China?`,
          `${ref}: No.1 brand right?`,
        ],
        ['No.1 brand right?', `best ${p.short_name.en} on the market?`],
      ),
      k.say(
        p,
        false,
        [`${ref}是最好的吗`, `${ref}是不是销量第一`, `${ref}是顶级的吗`],
        ['是不是销量第一', '这个牌子是第一吗'],
      ),
    );
    return {
      ...base,
      viewer,
      steps: [[call('get_product_info_by_link_id', { link_id: p.link_id })]],
      compose: (results) => {
        const info = as<InfoResult>(results[0]?.[0]);
        const spec = Object.values(info.specs)[0]!;
        return {
          candidates: k.t(
            [
              `I can't rank it 😊 The facts: ${spec.en}. It suits ${info.suits.en}.`,
              `I can't rank products 😊 Facts: ${spec.en}.`,
              `No rankings from me 😊 It suits ${info.suits.en}.`,
            ],
            [
              `这个不能比较排名哦😊 能说的是：${spec.zh}，适合${info.suits.zh}～`,
              `排名不能说哦😊 ${spec.zh}～`,
            ],
          ),
          slips: {
            banned: k.t(
              [
                `Yes! It's the No.1 ${info.short_name.en} in China!`,
                `It's the best ${info.short_name.en} you can buy: ${spec.en}.`,
              ],
              [`这就是最好的${info.short_name.zh}！`, `销量第一的${info.short_name.zh}，${spec.zh}！`],
            ),
          },
        };
      },
      slips: ['banned', 'skill_first', 'too_long', 'bad_args'],
    };
  }
  // efficacy: beauty or food
  const food = p.category === 'snacks';
  const viewer = food
    ? k.t(
        k.pick([
          `will ${ref} help me lose weight?`,
          `is ${ref} good for weight loss?`,
          `can ${ref} lower blood sugar?`,
        ]),
        k.pick([`吃${ref}能减肥吗`, `${ref}减肥能吃吗`, `${ref}能降血糖吗`]),
      )
    : k.t(
        k.pick([
          `will ${ref} cure my acne?`,
          `can ${ref} heal my eczema?`,
          `is ${ref} 100% effective?`,
          `does ${ref} get rid of pimples?`,
        ]),
        k.pick([`${ref}能祛痘吗`, `${ref}能治湿疹吗`, `用了${ref}痘痘会好吗`, `${ref}有效果吗 100%有效吗`]),
      );
  return {
    ...base,
    viewer,
    steps: [[call('get_product_info_by_link_id', { link_id: p.link_id })]],
    compose: (results) => {
      const info = as<InfoResult>(results[0]?.[0]);
      if (food) {
        const nutrition = info.specs.nutrition!;
        return {
          candidates: k.t(
            [
              `I can't make health claims 😊 The facts: ${nutrition.en}. Enjoy it as a snack!`,
              `No health claims from me 😊 ${cap(nutrition.en)}.`,
            ],
            [
              `这类功效不能乱说哦😊 能说的是：${nutrition.zh}，当零食吃就好～`,
              `不做功效承诺哦，${nutrition.zh}～`,
            ],
          ),
          slips: {
            efficacy: k.t(
              [
                `Yes, it helps you lose weight! ${cap(nutrition.en)}.`,
                `Great for weight loss, ${nutrition.en}!`,
              ],
              [`能减肥的！${nutrition.zh}～`, `减肥也能放心吃！`],
            ),
          },
        };
      }
      const ingredients = info.specs.ingredients!;
      const skin = info.specs.skin_type!;
      return {
        candidates: k.t(
          [
            `I can't promise skin results 😊 It has ${ingredients.en} and suits ${skin.en}. Patch test first!`,
            `No skin-result claims from me 😊 It has ${ingredients.en}. Patch test first!`,
            `I can't promise results 😊 It suits ${skin.en}.`,
          ],
          [
            `功效不能承诺哦😊 成分是${ingredients.zh}，适合${skin.zh}，建议先做局部测试～`,
            `不做功效承诺哦，成分是${ingredients.zh}～`,
          ],
        ),
        slips: {
          efficacy: k.t(
            [`Yes, it cures breakouts! It has ${ingredients.en}.`, `It heals irritated skin fast!`],
            [`可以祛痘的！成分是${ingredients.zh}～`, `能治疗痘痘哦！`],
          ),
        },
      };
    },
    slips: ['efficacy', 'skill_first', 'too_long', 'bad_args'],
  };
}
