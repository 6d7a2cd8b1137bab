// The shapes of the shop's tool results (as Shop.run in world.ts returns them) that the turn builders read.
import type { ToolResult } from '../world.js';

export type BiText = { en: string; zh: string };

export interface PriceResult {
  link_id: number;
  quantity: number;
  list_price: number;
  live_price: number;
  saving_vs_list: number;
  multi_buy: { label: string; discount: number } | null;
  product_coupon: { label: string; amount: number } | null;
  threshold_coupon: { label: string; threshold: number; discount: number } | null;
  next_threshold: { label: string; threshold: number; discount: number; add_amount: number } | null;
  total: number;
  unit_price: number;
}
interface StockVariant {
  option: string;
  option_zh: string;
  size?: string;
  stock: number;
  status: 'in_stock' | 'low' | 'sold_out';
  restock_in_days?: number;
}
export interface StockResult {
  variants: StockVariant[];
}
export interface SizeResult {
  body: { height_cm: number; weight_kg: number; fit: string };
  recommended_size: string;
  chart_row: { chest_cm?: number; waist_cm?: number; length_cm?: number };
  alternative: { size: string; for: string } | null;
  stock_of_recommended: number;
}
export interface ShippingResult {
  ship_from: BiText;
  carrier: BiText;
  cutoff: string;
  ships: 'today' | 'tomorrow';
  destination: BiText | null;
  eta_days_min: number;
  eta_days_max: number;
  remote: boolean;
  remote_fee?: number;
}
export interface AfterSalesResult {
  no_reason_return_days: number;
  conditions: BiText;
  return_shipping_insurance: boolean;
  exchange?: BiText;
  report_within_hours?: number;
  quality?: BiText;
  warranty_months?: number;
  price_protection_days?: number;
}
export interface InfoResult {
  specs: Record<string, BiText>;
  limit_per_order: number;
  suits: BiText;
  short_name: BiText;
}
export interface CompareItem {
  link_id: number;
  short_name: BiText;
  live_price: number;
  suits: BiText;
  [aspect: string]: unknown;
}
export interface RoomStateResult {
  current_link?: { link_id: number; title: string; live_price: number };
  flash_sales?: Array<{ time: string; link_id: number; title: string; flash_price: number; units: number }>;
  lucky_draw?: { next_at: string; keyword: string; prize: BiText };
  coupons?: Array<{ label: string; category: string; remaining: number }>;
}
export interface SearchResult {
  total: number;
  results: Array<{
    link_id: number;
    relevance: number;
    short_name: BiText;
    live_price: number;
    suits: BiText;
  }>;
}

/** A tool result read as the shape its tool returns. */
export const as = <T>(result: ToolResult | undefined) => result as unknown as T;
