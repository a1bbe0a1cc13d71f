import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '.';

describe('embedded database on the server thread', () => {
  it('lets timers (and so sockets) run between the statements of a long chain', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      let ticks = 0;
      const timer = setInterval(() => ticks++, 0);
      for (let i = 0; i < 300; i++) await database.db.execute(sql`select ${i}::int as n`);
      clearInterval(timer);
      // Without a turn of the event loop per statement the chain settles as microtasks: no tick at all.
      expect(ticks).toBeGreaterThan(5);
    } finally {
      await database.close();
    }
  });
});
