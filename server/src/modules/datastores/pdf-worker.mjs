// The PDF reader's thread (docs/adr/0042-bulk-import-and-warm-indexes.md). Plain ESM JavaScript on purpose,
// like the Lua sandbox's worker: it must start under plain Node, tsx and vitest alike.
//
// One worker reads one file with pdf.js (its build for Node, which parses on the thread that calls it), so
// a large PDF holds this thread, never the one that serves HTTP. Protocol:
//   main → worker  workerData {data: Uint8Array} (its buffer transferred)
//   worker → main  {ok: true, pages: {page, text}[]} | {ok: false, error: {name, message}}

import { parentPort, workerData } from 'node:worker_threads';

/** The text of every page that has any, in order; pdf.js's failures as their name and message. */
async function read(data) {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdf = await getDocument({ data, isEvalSupported: false, useSystemFonts: false, verbosity: 0 })
    .promise;
  try {
    const pages = [];
    for (let page = 1; page <= pdf.numPages; page++) {
      const content = await (await pdf.getPage(page)).getTextContent();
      const text = content.items
        .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
        .join('')
        .trim();
      if (text) pages.push({ page, text });
    }
    return pages;
  } finally {
    await pdf.loadingTask.destroy();
  }
}

try {
  parentPort.postMessage({ ok: true, pages: await read(workerData.data) });
} catch (err) {
  parentPort.postMessage({ ok: false, error: { name: err?.name, message: String(err?.message ?? err) } });
}
