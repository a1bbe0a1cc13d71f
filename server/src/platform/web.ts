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
  // wildcard: files are looked up per request, so a rebuilt console is served without a restart.
  await app.register(fastifyStatic, { root: webDist, wildcard: true, index: false });
  app.get('/', (_request, reply) => reply.type('text/html').sendFile('index.html'));
  return true;
}

/** Paths that belong to the API or the relay never fall back to the console. */
export function isConsoleRoute(url: string): boolean {
  return !/^\/(v1|stream|embed|healthz|readyz|icons\.json)(\/|\?|$)/.test(url);
}
