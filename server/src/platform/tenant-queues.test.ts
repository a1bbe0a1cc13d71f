import { describe, expect, it } from 'vitest';
import { TenantQueues } from './tenant-queues';

describe('TenantQueues', () => {
  it('serves tenants in turn, each first in first out, a served tenant moving to the back', () => {
    const queues = new TenantQueues<string, string>();
    for (const item of ['a1', 'a2', 'a3']) queues.push('a', item);
    queues.push('b', 'b1');
    queues.push('c', 'c1');
    const order: string[] = [];
    for (let item = queues.next(() => true); item; item = queues.next(() => true)) order.push(item);
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'a3']);
    expect(queues.size).toBe(0);
  });

  it('skips a tenant that may not be served now, keeping its place in the turn', () => {
    const queues = new TenantQueues<string, string>();
    queues.push('a', 'a1');
    queues.push('b', 'b1');
    expect(queues.next((tenant) => tenant !== 'a')).toBe('b1');
    expect(queues.next((tenant) => tenant !== 'a')).toBeUndefined();
    expect(queues.waiting('a')).toBe(1);
    expect(queues.next(() => true)).toBe('a1');
  });

  it('counts what waits, takes out one item, and drains the rest oldest first per tenant', () => {
    const queues = new TenantQueues<number, string>();
    queues.push(1, 'x');
    queues.push(1, 'y');
    queues.push(2, 'z');
    expect(queues.size).toBe(3);
    expect(queues.remove(1, 'x')).toBe(true);
    expect(queues.remove(1, 'x')).toBe(false);
    expect(queues.waiting(1)).toBe(1);
    expect(queues.drain()).toEqual(['y', 'z']);
    expect(queues.size).toBe(0);
    expect(queues.next(() => true)).toBeUndefined();
  });
});
