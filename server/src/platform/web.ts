import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export const DEFAULT_WEB_DIST = resolve(dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

/** Serves the built console at `/`, with index.html for client-side routes. */
export async function registerWebConsole(app: FastifyInstance, webDist: string): Promise<boolean> {
  if (!existsSync(join(webDist, 'index.html'))) {
    app.log.warn(`No built web console at ${webDist}: run "npm run build" to serve it.`);
    return false;
  }
  await app.register(fastifyStatic, { root: webDist, wildcard: false, index: false });
  return true;
}

/** Paths that belong to the API or the relay never fall back to the console. */
export function isConsoleRoute(url: string): boolean {
  return !/^\/(v1|stream|embed|healthz|readyz|icons\.json)(\/|\?|$)/.test(url);
}
