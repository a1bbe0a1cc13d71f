import { readFile } from 'node:fs/promises';
import { ICON_SEARCH_LIMIT, iconsQuery } from '@llmor/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context';
import { notFound } from '../../platform/errors';
import { parse } from '../../platform/validate';
import { iconSet } from './icon-set';

/** Public icon calls, outside /v1: the search behind the icon picker and the SVGs `icon:<name>` maps to. */
export function registerIconRoutes(app: FastifyInstance, ctx: AppContext): void {
  const icons = iconSet();
  if (icons.names.length === 0)
    ctx.log.warn('No icon set installed (@tabler/icons-react): icon search is empty.');

  app.get('/icons.json', async (request, reply) => {
    const { q } = parse(iconsQuery, request.query);
    reply.header('cache-control', 'public, max-age=3600');
    return { data: icons.search(q, ICON_SEARCH_LIMIT) };
  });

  app.get<{ Params: { file: string } }>('/icons/:file', async (request, reply) => {
    const { file } = request.params;
    const path = file.endsWith('.svg') ? icons.svgFile(file.slice(0, -4)) : null;
    if (!path) throw notFound('Icon');
    const svg = await readFile(path);
    return reply
      .type('image/svg+xml')
      .header('cache-control', 'public, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .send(svg);
  });
}
