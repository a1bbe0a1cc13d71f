import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib';
import {
  EMBED_CONFIG_NAME,
  EMBED_WIDGET_FILE,
  type EmbedWidgetConfig,
  embedScriptPath,
} from '@llmor/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { AppContext } from '../../platform/context';
import { DEFAULT_WEB_DIST } from '../../platform/web';
import { findVendorApp } from '../vendors/owned';
import { appearanceOf } from './present';
import { findEmbedByToken } from './repo';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

type Encoding = 'br' | 'gzip' | 'identity';

/** A short cache: a changed look reaches pages within minutes; the ETag makes the revalidation cheap. */
const CACHE_CONTROL = 'public, max-age=300';

/** `br` if the client takes it, else `gzip`, else the plain script (a `q=0` refuses a coding). */
export function negotiateEncoding(header: string | undefined): Encoding {
  const accepted = new Set(
    (header ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => !q || Number(q.trim().replace(/^q=/, '')) > 0)
      .map(([name]) => name!.trim().toLowerCase()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return 'identity';
}

/** JSON that is safe inside a script: no `</script>`, no line separators JavaScript would break on. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * `GET /embed/js/{token}`: the widget the console's build wrote (`web/src/embed/`), handed this embed's
 * configuration (EMBED_CONFIG_NAME), compressed per request's `accept-encoding` (kept per version in a small cache).
 * No session; an unknown token answers a 404 that is not JavaScript. Pages of any origin load it:
 * `cross-origin-resource-policy: cross-origin` (the API calls it makes are checked against the origins).
 */
export function registerEmbedScript(app: FastifyInstance, ctx: AppContext): void {
  const file = join(ctx.config.WEB_DIST ?? DEFAULT_WEB_DIST, EMBED_WIDGET_FILE);
  let template: { mtimeMs: number; text: string } | null = null;
  const compressed = new LRUCache<string, Buffer>({
    max: 500,
    maxSize: 32 * 1024 * 1024,
    sizeCalculation: (b) => b.length || 1,
  });

  const widgetTemplate = async (): Promise<string | null> => {
    const info = await stat(file).catch(() => null);
    if (!info) return null;
    if (template?.mtimeMs !== info.mtimeMs)
      template = { mtimeMs: info.mtimeMs, text: await readFile(file, 'utf8') };
    return template.text;
  };

  const refuse = (reply: FastifyReply, status: number, text: string) =>
    reply.code(status).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(text);

  app.get('/embed/js/:token', async (request: FastifyRequest, reply) => {
    const params = embedScriptPath.safeParse(request.params);
    const embed = params.success ? await findEmbedByToken(ctx.db, params.data.token) : null;
    if (!embed) return refuse(reply, 404, 'Unknown embed.');
    const text = await widgetTemplate();
    if (text === null) {
      ctx.log.error(`No embed widget at ${file}: run "npm run build -w web".`);
      return refuse(reply, 503, 'The chat widget is not built on this server.');
    }
    const app = await findVendorApp(ctx.db, embed.vendorId, embed.vendorAppId);
    const look = appearanceOf(embed);
    const config: EmbedWidgetConfig = {
      token: embed.token,
      app_id: embed.vendorAppId,
      title: look.title || app?.name || '',
      color: look.color,
      welcome_text: look.welcome_text,
      position: look.position,
    };
    const body = `(function(${EMBED_CONFIG_NAME}){${text}\n})(${scriptJson(config)});\n`;
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', CACHE_CONTROL)
      .header('vary', 'accept-encoding')
      .header('etag', etag)
      .header('cross-origin-resource-policy', 'cross-origin');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();

    const encoding = negotiateEncoding(request.headers['accept-encoding']);
    if (encoding === 'identity') return reply.send(body);
    const key = `${etag}:${encoding}`;
    let bytes = compressed.get(key);
    if (!bytes) {
      bytes =
        encoding === 'br'
          ? await brotli(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9 } })
          : await gzipAsync(body, { level: 9 });
      compressed.set(key, bytes);
    }
    return reply.header('content-encoding', encoding).send(bytes);
  });
}
