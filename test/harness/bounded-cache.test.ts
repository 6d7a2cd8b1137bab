// The byte-bounded cache: what it holds stays within its budget by the caller's estimate, least recently
// used first out; an entry over the whole budget is returned but not kept.
import { describe, expect, it } from 'vitest';
import { BoundedCache, boundedCaches } from '../../src/harness/bounded-cache.js';

const weigh = (key: string, value: string) => 2 * (key.length + value.length);

describe('BoundedCache', () => {
  it('holds at most its budget, evicting the least recently used', () => {
    const cache = new BoundedCache<string, string>(100, weigh);
    for (let index = 0; index < 10; index++) cache.set(`k${index}`, 'x'.repeat(8));
    // Each entry weighs 2 × (2 + 8) = 20 bytes: five fit.
    expect(cache.size).toBe(100);
    expect(cache.entryCount).toBe(5);
    expect(cache.get('k4')).toBeUndefined();
    expect(cache.get('k5')).toBe('x'.repeat(8));
    // k5 was used last: the next entry evicts k6, not k5.
    cache.set('k10', 'y'.repeat(7));
    expect(cache.get('k5')).toBeDefined();
    expect(cache.get('k6')).toBeUndefined();
    expect(cache.size).toBeLessThanOrEqual(100);
  });

  it('returns an entry over the whole budget without keeping it, and re-weighs a replaced one', () => {
    const cache = new BoundedCache<string, string>(100, weigh);
    expect(cache.set('big', 'z'.repeat(60))).toBe('z'.repeat(60));
    expect(cache.get('big')).toBeUndefined();
    expect(cache.size).toBe(0);
    cache.set('a', 'x'.repeat(9));
    cache.set('a', 'x'.repeat(19));
    expect(cache.size).toBe(40);
    expect(cache.entryCount).toBe(1);
  });

  it('counts hits and misses, and clear drops every entry but keeps the counts', () => {
    const cache = new BoundedCache<string, string>(100, weigh);
    cache.get('a');
    cache.set('a', 'x');
    cache.get('a');
    cache.get('a');
    cache.get('b');
    expect(cache.lookups).toEqual({ hits: 2, misses: 2 });
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.entryCount).toBe(0);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.lookups).toEqual({ hits: 2, misses: 3 });
  });

  it('lists a cache made with a name, and only those', () => {
    const named = new BoundedCache<string, string>(100, weigh, 'test.named');
    const anonymous = new BoundedCache<string, string>(100, weigh);
    expect(boundedCaches()).toContain(named);
    expect(boundedCaches()).not.toContain(anonymous);
    expect(named.name).toBe('test.named');
    expect(named.budget).toBe(100);
  });
});
