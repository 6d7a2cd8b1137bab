// Small pieces of reply text every turn builder uses: prices, capitals, the price to quote.
import type { Kit } from '../kit.js';
import type { PriceResult } from './tool-results.js';

export const yen = (value: number) => `¥${value}`;
export const cap = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The price to quote: after coupons when a coupon applies, else the live price. */
export function priceNow(k: Kit, r: PriceResult) {
  return r.total < r.live_price * r.quantity
    ? k.t(`${yen(r.total)} after coupons`, `到手¥${r.total}`)
    : k.t(`${yen(r.live_price)} live`, `直播价¥${r.live_price}`);
}
