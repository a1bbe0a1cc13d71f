/**
 * A large PDF made here (never committed): `pages` pages of text and an uncompressed filler stream that no
 * page uses, so the file reaches `bytes` without pdf.js having more text to read. For the import of large
 * files (the test and bench/knowledge).
 */
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';

export async function largePdf(opts: { bytes: number; pages: number }): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= opts.pages; p++) {
    const page = doc.addPage([595, 842]);
    for (let line = 0; line < 20; line++)
      page.drawText(`Page ${p}, line ${line}: the handbook on glaciers, rivers and trains.`, {
        x: 40,
        y: 800 - line * 24,
        size: 10,
        font,
      });
  }
  const filler = new Uint8Array(opts.bytes);
  doc.catalog.set(PDFName.of('Filler'), doc.context.register(doc.context.stream(filler, {})));
  return doc.save({ useObjectStreams: false });
}
