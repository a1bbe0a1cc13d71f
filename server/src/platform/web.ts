import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { SERVER_ROOT } from './paths';

export const DEFAULT_WEB_DIST = resolve(SERVER_ROOT, '../web/dist');

/** Serves the built console at `/`, with index.html for client-side routes. */
export async function registerWebConsole(app: FastifyInstance, webDist: string): Promise<boolean> {
  if (!existsSync(join(webDist, 'index.html'))) {
    app.log.warn(`No built web console at ${webDist}: run "npm run build" to serve it.`);
    return false;
  }
  // wildcard: files are looked up per request, so a rebuilt console is served without a restart.
  // Hashed assets never change under their name: cached for a year; index.html is revalidated so a new
  // build is picked up. Precompressed `.br`/`.gz` twins (written at build) are sent when accepted.
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: true,
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (res, path) => {
      res.setHeader('cache-control', /[/\\]assets[/\\]/.test(path) ? IMMUTABLE : REVALIDATE);
      // Caches must keep the brotli, gzip and plain answers apart.
      res.setHeader('vary', 'accept-encoding');
    },
  });
  app.get('/', (_request, reply) => sendConsole(reply));
  return true;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/** The console's index.html (for `/` and every client-side route), always revalidated. */
export function sendConsole(reply: FastifyReply) {
  return reply.type('text/html').header('cache-control', REVALIDATE).sendFile('index.html');
}

/** Paths that belong to the API or the relay never fall back to the console. */
export function isConsoleRoute(url: string): boolean {
  return !/^\/(v1|stream|embed|healthz|readyz|icons\.json)(\/|\?|$)/.test(url);
}
