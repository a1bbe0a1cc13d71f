/**
 * Importing documents (docs/adr/0032-document-import-and-sources.md): PDF, Word, HTML and Markdown files
 * made here by their own libraries, uploaded as they are; passages carry their source; unreadable files
 * are refused whole; documents keep their file's key order; sources reach a chatbot's stored answer,
 * the conversation API and the OpenAI-compatible endpoint.
 */
import { Readable } from 'node:stream';
import { FILE_IMPORT_MAX_BYTES } from '@llmor/contracts';
import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import OpenAI from 'openai';
import { PDFDocument, PDFHexString, rgb, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Client,
  createListeningTestServer,
  type ListeningTestServer,
  signedInVendor,
  uniq,
} from '../../test/harness';
import { largePdf } from '../../test/large-pdf';
import type { VendorRow } from '../vendors/repo';

let server: ListeningTestServer;
let vendor: VendorRow;
let owner: Client;
let api: (path: string) => string;
let demoModelId: number;

beforeAll(async () => {
  server = await createListeningTestServer();
  ({ vendor, client: owner } = await signedInVendor(server, 'member'));
  api = (path) => `/v1/vendors/${vendor.id}${path}`;
  demoModelId = (await owner.post(api('/avamodels/builtin-offline-demo/install'), { parameters: {} })).json()
    .data.id;
  await owner.post(api('/avamodels/builtin-lexical-embedding/install'), { parameters: {} });
});
afterAll(async () => {
  await server?.close();
});

/** A chatbot answering from its datastore `kb`. */
async function chatbotWithDatastore() {
  const created = await owner.post(api('/apps'), { app_key: 'chatbot' });
  expect(created.statusCode, created.body).toBe(201);
  const app = created.json().data;
  const put = await owner.put(api(`/apps/${app.id}`), {
    name: app.name,
    completion_vendor_model_id: demoModelId,
    parameters: { ...app.parameters, use_datastores: true, datastores: 'kb', top_k: 2 },
  });
  expect(put.statusCode, put.body).toBe(200);
  const ds = await owner.post(api(`/apps/${app.id}/datastores`), { name: 'kb' });
  expect(ds.statusCode, ds.body).toBe(201);
  return { app: app as { id: number }, datastoreId: ds.json().data.id as number };
}

async function datastore() {
  const app = (await owner.post(api('/apps'), { app_key: 'chatbot' })).json().data;
  const ds = await owner.post(api(`/apps/${app.id}/datastores`), { name: uniq('ds_').toLowerCase() });
  expect(ds.statusCode, ds.body).toBe(201);
  return ds.json().data.id as number;
}

function upload(datastoreId: number, mode: string, name: string, bytes: Uint8Array | string, url?: string) {
  const query = new URLSearchParams({ mode, name, ...(url && { url }) });
  return owner.request({
    method: 'POST',
    url: `/v1/datastores/${datastoreId}/docs/upload?${query}`,
    headers: { 'content-type': 'application/octet-stream' },
    payload: Buffer.from(bytes),
  });
}

/**
 * A text file of `bytes` bytes of `line` again and again, then `last`, sent in 64 KiB chunks without a
 * Content-Length, as a streaming client sends it.
 */
function uploadStream(datastoreId: number, name: string, bytes: number, line: string, last = '') {
  const chunk = Buffer.from(line.repeat(Math.ceil(65536 / line.length)).slice(0, 65536));
  async function* body() {
    for (let sent = 0; sent < bytes; sent += chunk.length) yield chunk.subarray(0, bytes - sent);
    if (last) yield Buffer.from(last);
  }
  return owner.request({
    method: 'POST',
    url: `/v1/datastores/${datastoreId}/docs/upload?mode=text_blob&name=${name}`,
    headers: { 'content-type': 'application/octet-stream' },
    payload: Readable.from(body()),
  });
}

const docs = async (id: number) => (await owner.get(`/v1/datastores/${id}/docs?page_size=100`)).json();

async function pdf(pages: string[][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([595, 842]);
    lines.forEach((line, i) => {
      page.drawText(line, { x: 50, y: 780 - i * 20, size: 12, font });
    });
  }
  return doc.save();
}

describe('importing files', () => {
  it('PDF: one passage set per page, each with the file name and its page', async () => {
    const id = await datastore();
    const bytes = await pdf([
      ['Opening hours', 'The shop opens at eight on weekdays.'],
      ['Returns', 'Goods may be returned within thirty days.'],
    ]);
    const res = await upload(id, 'pdf', 'handbook.pdf', bytes);
    expect(res.statusCode, res.body).toBe(200);
    const imported = res.json().data as { document: { text: string }; source: unknown }[];
    expect(imported).toHaveLength(2);
    expect(imported[0]!.document.text).toContain('opens at eight');
    expect(imported[0]!.source).toEqual({ file: 'handbook.pdf', page: 1 });
    expect(imported[1]!.document.text).toContain('returned within thirty days');
    expect(imported[1]!.source).toEqual({ file: 'handbook.pdf', page: 2 });
    // The list shows the source too; the same file again adds nothing.
    expect((await docs(id)).data[1].source).toEqual({ file: 'handbook.pdf', page: 2 });
    expect((await upload(id, 'pdf', 'handbook.pdf', bytes)).json().data).toHaveLength(0);
  });

  it('a 50 MB PDF imports: read in a thread of its own, every page a passage with its page', async () => {
    const id = await datastore();
    const bytes = await largePdf({ bytes: 50 * 1024 * 1024, pages: 40 });
    expect(bytes.length).toBeGreaterThan(50 * 1024 * 1024);
    const res = await upload(id, 'pdf', 'large.pdf', bytes);
    expect(res.statusCode, res.body).toBe(200);
    const imported = res.json().data as { source: { page: number } }[];
    expect([...new Set(imported.map((d) => d.source.page))]).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
  });

  it('Word: passages under their heading path', async () => {
    const id = await datastore();
    const doc = new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: 'Staff guide', heading: HeadingLevel.HEADING_1 }),
            new Paragraph('Welcome to the team.'),
            new Paragraph({ text: 'Holidays', heading: HeadingLevel.HEADING_2 }),
            new Paragraph('Everyone has twenty-five days of holiday a year.'),
          ],
        },
      ],
    });
    const res = await upload(id, 'docx', 'guide.docx', await Packer.toBuffer(doc));
    expect(res.statusCode, res.body).toBe(200);
    expect(
      res.json().data.map((d: { document: unknown; source: unknown }) => [d.document, d.source]),
    ).toEqual([
      [{ text: 'Welcome to the team.' }, { file: 'guide.docx', heading: ['Staff guide'] }],
      [
        { text: 'Everyone has twenty-five days of holiday a year.' },
        { file: 'guide.docx', heading: ['Staff guide', 'Holidays'] },
      ],
    ]);
  });

  it('HTML: text without markup, heading path, and the page address from its canonical link', async () => {
    const id = await datastore();
    const html = `<!doctype html><html><head><title>Help</title>
      <link rel="canonical" href="https://help.example.com/delivery"><style>p{color:red}</style></head>
      <body><nav>Home</nav><h1>Delivery</h1><p>Parcels arrive in <b>two</b> days.</p>
      <h2>Abroad</h2><ul><li>Europe: five days</li><li>Elsewhere: ten days</li></ul>
      <script>alert('x')</script></body></html>`;
    const res = await upload(id, 'html', 'delivery.html', html);
    expect(res.statusCode, res.body).toBe(200);
    const imported = res.json().data as { document: { text: string }; source: unknown }[];
    const texts = imported.map((d) => d.document.text);
    expect(texts.join('\n')).not.toMatch(/<|alert|color:red/);
    expect(imported.find((d) => d.document.text.includes('Parcels arrive in two days.'))!.source).toEqual({
      file: 'delivery.html',
      heading: ['Delivery'],
      url: 'https://help.example.com/delivery',
    });
    const abroad = imported.find((d) => d.document.text.includes('Europe: five days'))!;
    expect(abroad.document.text).toContain('Elsewhere: ten days');
    expect(abroad.source).toMatchObject({ heading: ['Delivery', 'Abroad'] });
  });

  it('Markdown: sections under headings, skipped levels and siblings replace the path; a given URL is kept', async () => {
    const id = await datastore();
    const markdown = [
      '# Manual',
      'Intro text.',
      '### Deep',
      'Deep text.',
      '## Setup',
      'Install the *app* first.',
      '## Use',
      'Press the button.',
    ].join('\n\n');
    const res = await upload(id, 'markdown', 'manual.md', markdown, 'https://docs.example.com/manual');
    expect(res.statusCode, res.body).toBe(200);
    expect(
      res
        .json()
        .data.map((d: { document: { text: string }; source: { heading?: string[] } }) => [
          d.document.text,
          d.source.heading,
        ]),
    ).toEqual([
      ['Intro text.', ['Manual']],
      ['Deep text.', ['Manual', 'Deep']],
      ['Install the app first.', ['Manual', 'Setup']],
      ['Press the button.', ['Manual', 'Use']],
    ]);
    expect(res.json().data[0].source.url).toBe('https://docs.example.com/manual');
  });

  it('text modes read the upload as UTF-8: QA and CSV keep the order of their keys and columns', async () => {
    const id = await datastore();
    const qa = await upload(id, 'qa', 'faq.json', '[{"Q":"Where?","A":"In Bern."}]');
    expect(qa.statusCode, qa.body).toBe(200);
    expect(Object.keys(qa.json().data[0].document)).toEqual(['Q', 'A']);
    expect(qa.json().data[0].source).toEqual({ file: 'faq.json' });
    const csv = await upload(id, 'csv', 'people.csv', 'zeta,alpha,mid\n1,2,3\n');
    expect(Object.keys(csv.json().data[0].document)).toEqual(['zeta', 'alpha', 'mid']);
    // The list answers them in the same order (the database keeps the document as written).
    const listed = (await docs(id)).data.map((d: { document: object }) => Object.keys(d.document));
    expect(listed).toEqual([
      ['Q', 'A'],
      ['zeta', 'alpha', 'mid'],
    ]);
    // And through the JSON import.
    const json = await owner.post(`/v1/datastores/${id}/docs/import`, {
      mode: 'json',
      data: '{"b":1,"a":2}',
    });
    expect(Object.keys(json.json().data[0].document)).toEqual(['b', 'a']);
  });

  it.each([
    [
      'an encrypted PDF',
      'pdf',
      async () => {
        const doc = await PDFDocument.create();
        doc.addPage().drawText('Secret plans', { x: 50, y: 700 });
        doc.context.trailerInfo.Encrypt = doc.context.obj({
          Filter: 'Standard',
          V: 1,
          R: 2,
          O: PDFHexString.of('a1'.repeat(32)),
          U: PDFHexString.of('b2'.repeat(32)),
          P: -44,
        });
        doc.context.trailerInfo.ID = doc.context.obj([
          PDFHexString.of('c3'.repeat(16)),
          PDFHexString.of('c3'.repeat(16)),
        ]);
        return doc.save({ useObjectStreams: false });
      },
      /The PDF is encrypted/,
    ],
    [
      'a scanned PDF without a text layer',
      'pdf',
      async () => {
        const doc = await PDFDocument.create();
        doc.addPage().drawRectangle({ x: 40, y: 40, width: 300, height: 400, color: rgb(0.2, 0.2, 0.2) });
        return doc.save();
      },
      /The PDF has no text layer/,
    ],
    ['a corrupt PDF', 'pdf', async () => (await pdf([['Whole text']])).slice(0, 120), /not a readable PDF/],
    [
      'a text file sent as PDF',
      'pdf',
      async () => new TextEncoder().encode('just text'),
      /not a readable PDF/,
    ],
    [
      'a corrupt Word file',
      'docx',
      async () => new TextEncoder().encode('PK\u0003\u0004broken'),
      /not a readable Word document/,
    ],
    [
      'a binary file as Markdown',
      'markdown',
      async () => new Uint8Array([0xff, 0xfe, 0x00, 0xd8]),
      /not UTF-8 text/,
    ],
    [
      'an empty HTML page',
      'html',
      async () => new TextEncoder().encode('<html><body> </body></html>'),
      /no text to import/,
    ],
  ])('%s → 400 saying what is wrong, nothing stored', async (_what, mode, make, message) => {
    const id = await datastore();
    const res = await upload(id, mode, `file.${mode}`, await make());
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(message);
    expect((await docs(id)).total_count).toBe(0);
  });

  it('a file sent in chunks without a Content-Length arrives whole, across several blocks', async () => {
    const id = await datastore();
    // 3 MiB of one line again and again, then a last line only the end of the body holds.
    const res = await uploadStream(id, 'long.txt', 3 * 1024 * 1024, 'The same line. ', 'Zanzibar closes it.');
    expect(res.statusCode, res.body).toBe(200);
    const found = await owner.get(`/v1/datastores/${id}/docs?search=Zanzibar`);
    expect(found.json().filter_count).toBe(1);
  });

  it('refuses an unknown mode, a missing name, an empty body, a JSON body; another vendor’s datastore is 404', async () => {
    const id = await datastore();
    const mode = await upload(id, 'xml', 'a.xml', '<a/>');
    expect(mode.statusCode).toBe(400);
    expect(mode.json().errors.mode).toMatch(
      /Must be one of: qa, text_blob, json, csv, pdf, docx, html, markdown/,
    );
    const noName = await owner.request({
      method: 'POST',
      url: `/v1/datastores/${id}/docs/upload?mode=pdf`,
      headers: { 'content-type': 'application/octet-stream' },
      payload: Buffer.from('x'),
    });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().errors.name).toBe('Required');
    const empty = await upload(id, 'text_blob', 'a.txt', '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/Send the file's bytes/);
    const json = await owner.post(`/v1/datastores/${id}/docs/upload?mode=json&name=a.json`, { a: 1 });
    expect(json.statusCode).toBe(400);
    const pdfAsText = await owner.post(`/v1/datastores/${id}/docs/import`, { mode: 'pdf', data: 'x' });
    expect(pdfAsText.statusCode).toBe(400);
    // A file past the upload's own limit is refused before it is read.
    const huge = await upload(
      id,
      'text_blob',
      'huge.txt',
      new Uint8Array(FILE_IMPORT_MAX_BYTES + 1).fill(120),
    );
    expect(huge.statusCode).toBe(413);
    expect(huge.json().message).toBe('The request body is too large: at most 64 MiB per request.');
    // Sent in chunks without a Content-Length, it is refused once more than the limit has arrived.
    const streamed = await uploadStream(id, 'huge.txt', FILE_IMPORT_MAX_BYTES + 1, 'x');
    expect(streamed.statusCode).toBe(413);
    expect(streamed.json().message).toBe('The request body is too large: at most 64 MiB per request.');

    const { client: c } = await signedInVendor(server, 'member');
    const foreign = await c.request({
      method: 'POST',
      url: `/v1/datastores/${id}/docs/upload?mode=text_blob&name=a.txt`,
      headers: { 'content-type': 'application/octet-stream' },
      payload: Buffer.from('Intruder text'),
    });
    expect(foreign.statusCode).toBe(404);
    expect((await docs(id)).total_count).toBe(0);
  });
});

describe('answers keep their sources', () => {
  it('the stored answer, the conversation API and the OpenAI-compatible endpoint carry file and page', async () => {
    const { app, datastoreId } = await chatbotWithDatastore();
    const bytes = await pdf([['Welcome'], ['The head office is in Bern next to the railway station.']]);
    expect((await upload(datastoreId, 'pdf', 'company.pdf', bytes)).statusCode).toBe(200);

    const conversation = await owner.post('/v1/conversations', {
      vendor_app_id: app.id,
      vendor_channel: 'management',
    });
    expect(conversation.statusCode, conversation.body).toBe(201);
    const token = conversation.json().data.token;
    const sent = await owner.post(`/v1/conversations/${token}`, { content: 'Where is the head office?' });
    expect(sent.statusCode, sent.body).toBe(200);
    await expect
      .poll(async () =>
        (await owner.get(`/v1/conversations/${token}`))
          .json()
          .data.some((m: { role: string }) => m.role === 'assistant'),
      )
      .toBe(true);
    const stored = (await owner.get(`/v1/conversations/${token}`)).json().data;
    // The greeting comes first; the answer is the last assistant message.
    const reply = stored.findLast((m: { role: string }) => m.role === 'assistant');
    expect(reply.sources[0]).toMatchObject({
      datastore: 'kb',
      source: { file: 'company.pdf', page: 2 },
    });
    expect(reply.sources[0].text).toContain('head office is in Bern');
    expect(
      stored
        .filter((m: { id: number }) => m.id !== reply.id)
        .every((m: { sources: [] }) => m.sources.length === 0),
    ).toBe(true);

    const client = await owner.post(api(`/apps/${app.id}/clients`), { name: 'SDK' });
    const sdk = new OpenAI({
      apiKey: client.json().data.full_token,
      baseURL: `${server.url}/v1/openai`,
      maxRetries: 0,
    });
    const completion = (await sdk.chat.completions.create({
      model: 'kb-bot',
      messages: [{ role: 'user', content: 'Where is the head office?' }],
    })) as OpenAI.ChatCompletion & { sources: { source: unknown; text: string }[] };
    expect(completion.sources[0]).toMatchObject({ source: { file: 'company.pdf', page: 2 } });

    const stream = await sdk.chat.completions.create({
      model: 'kb-bot',
      messages: [{ role: 'user', content: 'Where is the head office?' }],
      stream: true,
    });
    const finishing: unknown[] = [];
    for await (const chunk of stream) if (chunk.choices[0]?.finish_reason === 'stop') finishing.push(chunk);
    expect(finishing).toHaveLength(1);
    expect((finishing[0] as { sources: { source: unknown }[] }).sources[0]).toMatchObject({
      source: { file: 'company.pdf', page: 2 },
    });

    const response = (await sdk.responses.create({
      model: 'kb-bot',
      input: 'Where is the head office?',
    })) as {
      sources?: { source: unknown }[];
    };
    expect(response.sources?.[0]).toMatchObject({ source: { file: 'company.pdf', page: 2 } });
  });
});
