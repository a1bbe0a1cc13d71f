import { parseImport } from './modules/datastores/parse';
import { docxParagraphs, markdownOpenLinks, pdfManyPages, htmlNestedDivs } from './test/hostile-documents';
const limits = { maxDepth: 256, maxInflatedBytes: 2 ** 30, maxInflateRatio: 100000, maxPages: 1e6, maxParagraphs: 1e8, maxTextChars: 2 ** 29 };
const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i % 997}`).join(' ');
const mdNormal = (k: number) => Array.from({ length: k }, (_, i) => `## Part ${i}\n\n${words(60)} *em* [link](http://x/${i}).\n\n- item ${i}\n- other ${i}\n`).join('\n');
const htmlNormal = (k: number) => `<html><body>${Array.from({ length: k }, (_, i) => `<h2>Part ${i}</h2><p>${words(60)} <b>b</b> <a href="/x">l</a>.</p><ul><li>item ${i}</li><li>other</li></ul>`).join('')}</body></html>`;
const cases: [string, string, (s: number) => Uint8Array][] = [
  ['markdown, ordinary (sections of 60 words)', 'markdown', (s) => new TextEncoder().encode(mdNormal(100 * s))],
  ['markdown, `[a](` runs', 'markdown', (s) => new Uint8Array(markdownOpenLinks(0.1 * s))],
  ['html, ordinary', 'html', (s) => new TextEncoder().encode(htmlNormal(100 * s))],
  ['html, 200 nested divs repeated', 'html', (s) => new TextEncoder().encode(Array.from({length: 10*s}, () => '<div>'.repeat(200)+'x'+'</div>'.repeat(200)).join(''))],
  ['docx, one-letter paragraphs', 'docx', (s) => new Uint8Array(docxParagraphs(0.05 * s))],
  ['pdf, one-line pages', 'pdf', (s) => new Uint8Array(pdfManyPages(0.0001 * s))],
  ['text_blob', 'text_blob', (s) => new TextEncoder().encode(words(10_000 * s))],
];
for (const [what, mode, make] of cases) {
  await parseImport(mode as any, make(1), undefined, limits); // warm
  const row: string[] = [];
  for (const s of [1, 10, 100]) {
    const bytes = make(s);
    const times: number[] = [];
    for (let r = 0; r < (s === 100 ? 1 : 3); r++) {
      const copy = bytes.slice();
      const t = performance.now();
      await parseImport(mode as any, copy, undefined, limits);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    row.push(`${s}× (${(bytes.length / 1024).toFixed(0)} KB): ${times[Math.floor(times.length / 2)]!.toFixed(0)} ms`);
  }
  console.log(`| ${what} | ${row.join(' | ')} |`);
}
