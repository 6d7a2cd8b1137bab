// The small-talk turn: greetings and chat, answered without a product tool (the room state at most).
import type { Kit, TurnSpec } from '../kit.js';
import { call } from './gold-calls.js';
import { GENERIC } from './mistakes.js';
import { yen } from './reply-text.js';
import { as, type RoomStateResult } from './tool-results.js';

type ChatKind = 'greet' | 'real' | 'name' | 'compliment' | 'first_time' | 'live' | 'tired';

export function chatTurn(k: Kit, kind: ChatKind): TurnSpec {
  const host = k.context.room.host;
  const messages: Record<ChatKind, [string[], string[]]> = {
    greet: [
      ['hi host!', 'good evening from Toronto 👋', 'hello hello', 'hey everyone!'],
      ['主播好', '晚上好呀', '来了来了', '大家好'],
    ],
    real: [
      ['are you a real person?', 'is this an AI?', 'wait are you a bot lol'],
      ['你是真人吗', '主播是AI吗'],
    ],
    name: [
      ["what's your name?", 'who is the host tonight?'],
      ['主播叫什么名字', '主播怎么称呼'],
    ],
    compliment: [
      ['love this room ❤️', "you're so funny haha", 'your voice is nice'],
      ['主播好漂亮', '声音好好听', '喜欢这个直播间'],
    ],
    first_time: [
      ['first time here!', 'just found this stream'],
      ['第一次来', '新来的～'],
    ],
    live: [
      ['is this live or recorded?', 'is this a replay?'],
      ['是直播还是录播', '这是回放吗'],
    ],
    tired: [
      ['you must be tired, thanks for streaming', 'long stream tonight!'],
      ['主播辛苦了', '主播累不累'],
    ],
  };
  const [en, zh] = messages[kind];
  const steer = k.chance(0.5);
  return {
    viewer: k.pick(k.t(en, zh)),
    intents: ['chit_chat'],
    skills: ['chit_chat'],
    steps: steer ? [[call('get_live_room_state', { include: ['current_link'] })]] : [],
    compose: (results) => {
      const current = as<RoomStateResult>(results[0]?.[0])?.current_link;
      const product = current ? k.product(current.link_id) : undefined;
      const steerEn = current
        ? ` Link ${current.link_id}, the ${product!.short_name.en}, is on screen now at ${yen(current.live_price)}.`
        : ' Ask me anything about the links in the cart!';
      const steerZh = current
        ? `现在讲的是${current.link_id}号${product!.short_name.zh}，直播价¥${current.live_price}～`
        : '有想了解的商品随时问我哦～';
      const openers: Record<ChatKind, [string, string]> = {
        greet: ['Hi and welcome! 👋', '欢迎欢迎～'],
        real: ["I'm an AI host, but the products and prices are real!", '我是AI主播哦，商品和价格都是真的～'],
        name: [`I'm ${host}, your AI host tonight!`, `我是AI主播${host}～`],
        compliment: ['Aww, thank you! ❤️', '谢谢宝宝夸奖❤️'],
        first_time: ["Welcome! Tap follow so you don't miss the lucky bags.", '欢迎新朋友！点个关注不迷路～'],
        live: ["We're live right now!", '现在是直播哦～'],
        tired: ['Thanks for keeping me company!', '谢谢关心，不辛苦～'],
      };
      const [openEn, openZh] = openers[kind];
      return { candidates: k.t([`${openEn}${steerEn}`, openEn], [`${openZh}${steerZh}`, openZh]) };
    },
    slips: steer ? GENERIC : ['skill_first', 'too_long', 'banned'],
  };
}
