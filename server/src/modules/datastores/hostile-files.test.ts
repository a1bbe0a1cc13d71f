/**
 * Hostile files uploaded as a member of the datastore's vendor (ADR 0053): each
 * answers a 4xx naming its limit and stores nothing; `/healthz` answers throughout a hostile parse; a file
 * past the time limit ends its thread and the next upload is read; a vendor past its share waits while
 * another vendor's upload goes through, and past its half of the queue gets 429 + Retry-After; a caller that
 * disconnects mid-parse leaves nothing stored and frees the thread. The shapes come from
 * `test/hostile-documents.ts` at small scales (the full-size figures are the ADR's).
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  createListeningTestServer,
  type ListeningTestServer,
  makeUser,
  makeVendor,
  uniq,
} from '../../test/harness';
import {
  docxGiantRun,
  docxManyParagraphs,
  docxParagraphs,
  htmlNestedDivs,
  markdownBlockquotes,
  markdownListMarkers,
  markdownNestedContainers,
  markdownOpenLinks,
  pdfManyPages,
  pdfManyShowTexts,
} from '../../test/hostile-documents';
import { parsePool } from './parse-pool';

// Well below the 10,000,000-`Tj` PDF's reading time (13–15 s on CI's machine, more under load: at 15 s it
// sometimes finished first) and well above every other file here (≤ 3 s under load).
const TIMEOUT_MS = 5_000;
const METRICS_TOKEN = 'metrics-token-of-this-test';

let server: ListeningTestServer;
let owner: Client;
let other: Client;
const vendorOf = new Map<Client, number>();

async function memberOfNewVendor(): Promise<Client> {
  const vendor = await makeVendor(server.ctx);
  const user = await makeUser(server.ctx, { vendors: [vendor] });
  const client = await Client.signedIn(server.app, user.email, user.password);
  client.vendorKey = vendor.key;
  vendorOf.set(client, vendor.id);
  return client;
}

beforeAll(async () => {
  server = await createListeningTestServer({
    env: {
      DOCUMENT_PARSE_WORKERS: '2',
      DOCUMENT_PARSE_WORKERS_PER_VENDOR: '1',
      DOCUMENT_PARSE_QUEUE: '2',
      DOCUMENT_PARSE_TIMEOUT_MS: String(TIMEOUT_MS),
      DOCUMENT_MAX_PAGES: '100',
      METRICS_TOKEN: METRICS_TOKEN,
    },
  });
  owner = await memberOfNewVendor();
  other = await memberOfNewVendor();
});
afterAll(async () => {
  await server?.close();
});

const pool = () => parsePool(server.ctx.config);

async function datastore(client: Client): Promise<number> {
  const vendorId = vendorOf.get(client)!;
  const app = (await client.post(`/v1/vendors/${vendorId}/apps`, { app_key: 'chatbot' })).json().data;
  const ds = await client.post(`/v1/vendors/${vendorId}/apps/${app.id}/datastores`, {
    name: uniq('ds_').toLowerCase(),
  });
  expect(ds.statusCode, ds.body).toBe(201);
  return ds.json().data.id as number;
}

const uploadUrl = (id: number, mode: string, name: string) =>
  `/v1/datastores/${id}/docs/upload?${new URLSearchParams({ mode, name })}`;

function upload(client: Client, id: number, mode: string, name: string, bytes: Uint8Array | string) {
  return client.request({
    method: 'POST',
    url: uploadUrl(id, mode, name),
    headers: { 'content-type': 'application/octet-stream' },
    payload: Buffer.from(bytes),
  });
}

async function stored(client: Client, id: number): Promise<number> {
  return (await client.get(`/v1/datastores/${id}/docs`)).json().total_count as number;
}

async function until(condition: () => boolean, what: string) {
  const end = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

// Files read up to the time limit, on a machine that may be busy: the wait is for state, the bound generous.
describe('hostile files', { timeout: 120_000 }, () => {
  it.each([
    [
      '`>`×2,000 (blockquotes nested)',
      'markdown',
      400,
      () => markdownBlockquotes(0.01),
      /DOCUMENT_MAX_DEPTH/,
    ],
    [
      '`- `×5,000 (list items nested)',
      'markdown',
      400,
      () => markdownListMarkers(0.01),
      /DOCUMENT_MAX_DEPTH/,
    ],
    [
      '`> - `×5,000 (20 KB, containers nested)',
      'markdown',
      400,
      () => markdownNestedContainers(1),
      /deeper than 256 levels \(DOCUMENT_MAX_DEPTH\)/,
    ],
    ['`<div>`×50,000 nested', 'html', 400, () => htmlNestedDivs(0.1), /DOCUMENT_MAX_DEPTH/],
    [
      '200,000 one-letter paragraphs (21 KB zipped)',
      'docx',
      413,
      () => docxParagraphs(1),
      /DOCUMENT_MAX_INFLATE_RATIO/,
    ],
    [
      '500,000 one-letter paragraphs',
      'docx',
      413,
      () => docxManyParagraphs(0.1),
      /DOCUMENT_MAX_INFLATE_RATIO/,
    ],
    [
      'a run of 100 MiB',
      'docx',
      413,
      () => docxGiantRun(0.1),
      /more than 64 MiB \(DOCUMENT_MAX_INFLATED_MB\)/,
    ],
    [
      '200 pages (past DOCUMENT_MAX_PAGES=100)',
      'pdf',
      413,
      () => pdfManyPages(0.001),
      /200 pages, more than 100 \(DOCUMENT_MAX_PAGES\)/,
    ],
  ])(
    '%s (%s) → %i naming the limit, nothing stored, the server alive',
    async (_what, mode, status, make, limit) => {
      const id = await datastore(owner);
      const res = await upload(owner, id, mode as string, `hostile.${mode}`, make());
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().message).toMatch(limit);
      expect(await stored(owner, id)).toBe(0);
      expect((await server.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    },
  );

  it('the JSON import reads in the pool too: nested Markdown as `data` → 400 naming DOCUMENT_MAX_DEPTH', async () => {
    const id = await datastore(owner);
    const res = await owner.post(`/v1/datastores/${id}/docs/import`, {
      mode: 'markdown',
      data: markdownBlockquotes(0.01).toString(),
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(/DOCUMENT_MAX_DEPTH/);
    expect(await stored(owner, id)).toBe(0);
  });

  it('`[a](`×50,000 is read in linear time and imported', async () => {
    const id = await datastore(owner);
    const res = await upload(owner, id, 'markdown', 'links.md', markdownOpenLinks(1));
    expect(res.statusCode, res.body).toBe(200);
    expect(await stored(owner, id)).toBeGreaterThan(0);
  });

  it('/healthz answers every time while a file is read past its time limit; then the thread is ended and the next upload read', async () => {
    const id = await datastore(owner);
    let done = false;
    const hostile = upload(owner, id, 'pdf', 'show-texts.pdf', pdfManyShowTexts(1)).finally(() => {
      done = true;
    });
    const answers: number[] = [];
    while (!done) {
      answers.push((await server.app.inject({ method: 'GET', url: '/healthz' })).statusCode);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const res = await hostile;
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().message).toMatch(`longer than ${TIMEOUT_MS} ms (DOCUMENT_PARSE_TIMEOUT_MS)`);
    expect(answers.length).toBeGreaterThan(10);
    expect(answers.every((status) => status === 200)).toBe(true);
    expect(await stored(owner, id)).toBe(0);
    const next = await upload(owner, id, 'text_blob', 'next.txt', 'Read by a fresh thread.');
    expect(next.statusCode, next.body).toBe(200);
    expect(await stored(owner, id)).toBe(1);
  });

  it('a vendor past its share waits while another vendor’s upload goes through; past its half of the queue, 429 + Retry-After', async () => {
    const mine = await datastore(owner);
    const theirs = await datastore(other);
    let slowDone = false;
    const slow = upload(owner, mine, 'pdf', 'slow.pdf', pdfManyShowTexts(1)).finally(() => {
      slowDone = true;
    });
    await until(() => pool().stats().busy === 1, 'the slow file read');
    let secondDone = false;
    const second = upload(owner, mine, 'text_blob', 'second.txt', 'Waits for its vendor’s thread.').finally(
      () => {
        secondDone = true;
      },
    );
    await until(() => pool().stats().queued === 1, 'the second file queued');
    const scrape = await server.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(scrape.body).toMatch(/^llmor_document_parse_threads\{state="busy"\} 1$/m);
    expect(scrape.body).toMatch(/^llmor_document_parse_queued 1$/m);
    const third = await upload(owner, mine, 'text_blob', 'third.txt', 'One too many.');
    expect(third.statusCode, third.body).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect(third.json().message).toMatch(/DOCUMENT_PARSE_QUEUE/);

    const through = await upload(other, theirs, 'text_blob', 'other.txt', 'Another vendor goes through.');
    expect(through.statusCode, through.body).toBe(200);
    expect(slowDone).toBe(false);
    expect(secondDone).toBe(false);

    expect((await slow).statusCode).toBe(413);
    expect((await second).statusCode).toBe(200);
    expect(await stored(owner, mine)).toBe(1);
  });

  it('a caller that disconnects mid-parse leaves nothing stored and frees the thread', async () => {
    const id = await datastore(owner);
    const url = uploadUrl(id, 'pdf', 'gone.pdf');
    const body = pdfManyShowTexts(1);
    const endedBefore = pool().counters.ended;
    const req = httpRequest(`${server.url}${url}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/octet-stream',
        'content-length': body.length,
        'x-accesstoken': owner.accessToken('POST', url),
        'x-vendor': owner.vendorKey!,
      },
    });
    req.on('error', () => {});
    req.end(body);
    await until(() => pool().stats().busy === 1, 'the file read');
    req.destroy();
    await until(
      () => pool().counters.ended === endedBefore + 1 && pool().stats().busy === 0,
      'the thread ended',
    );
    expect(await stored(owner, id)).toBe(0);
    const next = await upload(owner, id, 'text_blob', 'after.txt', 'The pool serves the next upload.');
    expect(next.statusCode, next.body).toBe(200);
    expect(await stored(owner, id)).toBe(1);
  });
});
