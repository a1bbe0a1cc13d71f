/**
 * Web benchmark: npx tsx bench/web/run.ts  (after `npm run build -w web`)
 *
 * What a first visit downloads before the console can render: the entry script and the modules
 * `index.html` preloads, gzip-compressed as served (level 9, as the build precompresses), against the
 * goal (issue 14: ≤ 150 KB); the largest chunks, loaded later on demand; and the web embed's widget,
 * which a vendor's page downloads whole (issue 11: ≤ 30 KB). `WEB_DIST` measures a build elsewhere.
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

const initialSizes = initial.map((file) => [file, gz(file)] as const).sort((a, b) => b[1] - a[1]);
const total = initialSizes.reduce((sum, [, n]) => sum + n, 0);
const chunks = readdirSync(join(dist, 'assets'))
  .filter((f) => f.endsWith('.js'))
  .map((f) => [`assets/${f}`, gz(`assets/${f}`)] as const)
  .filter(([f]) => !initial.includes(f))
  .sort((a, b) => b[1] - a[1])
  .slice(0, 8);

console.log('| measure | gzip | goal |');
console.log('| --- | --- | --- |');
console.log(`| initial JS (entry + ${initial.length - 1} preloads) | ${kb(total)} | ≤ 150 KB |`);
for (const [file, n] of initialSizes) console.log(`| — ${file} | ${kb(n)} | |`);
for (const [file, n] of chunks) console.log(`| on demand: ${file} | ${kb(n)} | |`);
const widget = 'embed/widget.js';
console.log(`| web embed widget (${widget}, all it loads) | ${kb(gz(widget))} | ≤ 30 KB |`);
