/**
 * Work waiting for a pool's threads: first in, first out per tenant, and round-robin between tenants — the
 * map's order is the turn, and a tenant served moves to the back. The Lua pool (ADR 0021) and the document
 * parse pool (ADR 0053) each say which tenants may be served now (their per-tenant share).
 */
export class TenantQueues<Tenant, Item> {
  private readonly queues = new Map<Tenant, Item[]>();
  private count = 0;

  /** Items waiting, all tenants. */
  get size(): number {
    return this.count;
  }

  /** Items `tenant` has waiting. */
  waiting(tenant: Tenant): number {
    return this.queues.get(tenant)?.length ?? 0;
  }

  push(tenant: Tenant, item: Item): void {
    const items = this.queues.get(tenant);
    if (items) items.push(item);
    else this.queues.set(tenant, [item]);
    this.count += 1;
  }

  /** The oldest item of the next tenant in turn for which `mayServe` holds; that tenant moves to the back. */
  next(mayServe: (tenant: Tenant) => boolean): Item | undefined {
    for (const [tenant, items] of this.queues) {
      if (!mayServe(tenant)) continue;
      const item = items.shift() as Item;
      this.queues.delete(tenant);
      if (items.length > 0) this.queues.set(tenant, items);
      this.count -= 1;
      return item;
    }
    return undefined;
  }

  /** Takes `item` out of `tenant`'s queue; false when it was not waiting. */
  remove(tenant: Tenant, item: Item): boolean {
    const items = this.queues.get(tenant);
    const at = items?.indexOf(item) ?? -1;
    if (!items || at < 0) return false;
    items.splice(at, 1);
    if (items.length === 0) this.queues.delete(tenant);
    this.count -= 1;
    return true;
  }

  /** Empties every queue: what was waiting, oldest first per tenant. */
  drain(): Item[] {
    const all = [...this.queues.values()].flat();
    this.queues.clear();
    this.count = 0;
    return all;
  }
}
