/**
 * Web benchmark: npx tsx bench/web/run.ts  (after `npm run build -w web`)
 *
 * What a first visit downloads before the console can render, gzip-compressed as served (level 9, as the
 * build precompresses), against the goal (docs/adr/0017-first-screen-budget.md: ≤ 150 KB): the entry script and the modules
 * `index.html` preloads, then each first screen — the sign-in page and the dashboard a signed-in user lands
 * on — as those plus the lazy chunks it renders (the sign-in route; the app shell and the dashboard route)
 * and the chunks each preloads (the entry's `__vite__mapDeps` list for that `import()`). Then the largest chunks loaded later on demand, and the web embed's widget,
 * which a vendor's page downloads whole (docs/adr/0016-web-embeds.md: ≤ 30 KB). `WEB_DIST` measures a build elsewhere.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = resolve(process.env.WEB_DIST ?? resolve(import.meta.dirname, '../../web/dist'));
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const initial = [
  ...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\/([^"]+\.js)"/g),
].map((m) => m[1]!);
const gz = (file: string) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const sum = (files: Iterable<string>) => [...files].reduce((total, file) => total + gz(file), 0);

/** The chunk `import()`ed for the module `route` (e.g. LoginRoute) and the chunks preloaded with it. */
function routeChunks(route: string): string[] {
  const entry = readFileSync(join(dist, initial[0]!), 'utf8');
  const deps = /__vite__mapDeps=\([^[]*\[([^\]]*)\]/
    .exec(entry)?.[1]
    ?.match(/"[^"]+"/g)
    ?.map((s) => s.slice(1, -1));
  const call = new RegExp(
    `import\\([\`"']\\./(${route}-[\\w-]+\\.js)[\`"']\\)[^;]*?__vite__mapDeps\\(\\[([\\d,]*)\\]\\)`,
  );
  const found = call.exec(entry);
  if (!found || !deps) throw new Error(`no lazy import of ${route} in ${initial[0]}`);
  return [`assets/${found[1]}`, ...found[2]!.split(',').map((i) => deps[Number(i)]!)];
}

const initialSizes = initial.map((file) => [file, gz(file)] as const).sort((a, b) => b[1] - a[1]);
const total = sum(initial);
const firstScreens = {
  'sign-in page (/login)': ['LoginRoute'],
  'dashboard (/)': ['AppLayout', 'DashboardRoute'],
};
const screens = Object.entries(firstScreens).map(([name, routes]) => {
  const extra = [...new Set(routes.flatMap(routeChunks))].filter(
    (f) => f.endsWith('.js') && !initial.includes(f),
  );
  return [name, total + sum(extra), extra.length] as const;
});
const chunks = readdirSync(join(dist, 'assets'))
  .filter((f) => f.endsWith('.js'))
  .map((f) => [`assets/${f}`, gz(`assets/${f}`)] as const)
  .filter(([f]) => !initial.includes(f))
  .sort((a, b) => b[1] - a[1])
  .slice(0, 8);

console.log('| measure | gzip | goal |');
console.log('| --- | --- | --- |');
console.log(`| initial JS (entry + ${initial.length - 1} preloads) | ${kb(total)} | ≤ 150 KB |`);
for (const [name, n, count] of screens)
  console.log(`| first screen: ${name}, + ${count} chunks | ${kb(n)} | ≤ 150 KB |`);
for (const [file, n] of initialSizes) console.log(`| — ${file} | ${kb(n)} | |`);
for (const [file, n] of chunks) console.log(`| on demand: ${file} | ${kb(n)} | |`);
const widget = 'embed/widget.js';
console.log(`| web embed widget (${widget}, all it loads) | ${kb(gz(widget))} | ≤ 30 KB |`);
