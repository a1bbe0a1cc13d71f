import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Security headers on every response (helmet's): a CSP whose scripts come only from this origin (no inline
 * scripts), the console never framed, nosniff, a strict referrer policy. Inline styles stay allowed:
 * Mantine writes its CSS variables into `<style>` elements at run time.
 */
const OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  crossOriginEmbedderPolicy: false,
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
};

/**
 * What helmet does to a response with these options, recorded once: no option depends on the request, and
 * building helmet's middleware (validating the CSP) on every request was most of the pipeline's own cost
 * (docs/adr/0044-a-cheaper-request-pipeline.md).
 */
function securityHeaders(): { set: [string, string][]; removed: string[] } {
  const set: [string, string][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string) => set.push([name, value]),
    removeHeader: (name: string) => removed.push(name),
  };
  helmet(OPTIONS)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return { set, removed };
}

/**
 * Sets the headers on the raw response, before any route runs: answers a route streams itself (SSE) and
 * errors carry them too.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  const { set, removed } = securityHeaders();
  app.addHook('onRequest', (_request, reply, done) => {
    const res = reply.raw;
    for (const [name, value] of set) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    done();
  });
}
