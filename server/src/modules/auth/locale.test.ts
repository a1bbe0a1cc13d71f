/**
 * Server texts a person reads answer in the request's `locale` (docs/adr/0030): sign-in failure, links,
 * plan limits with the period's end in the locale's date pattern, field messages; without a locale,
 * the English texts docs/reference/api.md quotes.
 */
import { formatDay, INVALID_CREDENTIALS, LOCALES, localize, MESSAGES, message } from '@llmor/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../../test/fakes';
import { Client, createTestServer, makeUser, makeVendor, type TestServer, uniq } from '../../test/harness';
import { makeChatApp, makeConversation, makeVendorModel } from '../completion/testing';

let server: TestServer;
let admin: Client;
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  server = await createTestServer({ env: { EMBED_CONVERSATIONS_PER_ADDRESS_PER_HOUR: '1' } });
  const su = await makeUser(server.ctx, { isSu: true });
  admin = await Client.signedIn(server.app, su.email, su.password);
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

/** Words that give an English text away (none of them is a word of the other locales' texts). */
const ENGLISH_WORDS =
  /\b(not found|could not|the|is|are|was|rejected|refused|request|requests|unavailable|too many|try again|per hour|without)\b/i;

describe('the message catalogue', () => {
  it('has every text in every locale, with the same parameters as the English one', () => {
    for (const [code, entry] of Object.entries(MESSAGES)) {
      const params = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      for (const locale of LOCALES) {
        const text = message(code as keyof typeof MESSAGES, {}, locale);
        expect(text, `${code} ${locale}`).toBeTruthy();
        expect(params(text), `${code} ${locale}`).toEqual(params(entry.en_US));
        if (locale.endsWith('_CH')) expect(text, `${code} ${locale}`).not.toContain('ß');
      }
    }
  });

  it('recognises an English text with its parameters and writes it in the locale', () => {
    const english = message('usedUpRequests', { count: 1000, date: '2026-12-01' });
    expect(english).toBe(
      "The plan's 1000 requests for this period are used up (the period ends 2026-12-01). Upgrade the plan to send more.",
    );
    expect(localize(english, 'de_CH')).toContain('01.12.2026');
    expect(localize(english, 'de_CH')).toContain("1'000");
    expect(localize(english, 'fr_FR')).toContain('01/12/2026');
    expect(localize(english, 'en_US')).toContain('1,000 requests');
    expect(localize(english, 'en_US')).toContain('12/01/2026');
    expect(localize('Something the catalogue does not know', 'fr_FR')).toBe(
      'Something the catalogue does not know',
    );
    expect(formatDay('2026-12-01', 'en_US')).toBe('12/01/2026');
  });
});

describe('answers in the request locale', () => {
  it('says a failed sign-in in the locale the console sends, English without one', async () => {
    const user = await makeUser(server.ctx);
    const c = await Client.create(server.app);
    const wrong = { identifier: user.email, secret: 'not-the-password' };
    const english = await c.post('/v1/auth/signin', wrong);
    expect(english.statusCode).toBe(401);
    expect(english.json().message).toBe(INVALID_CREDENTIALS);
    const german = await c.post('/v1/auth/signin?locale=de_CH', wrong);
    expect(german.statusCode).toBe(401);
    expect(german.json().message).toBe('E-Mail-Adresse oder Passwort ist falsch');
    const french = await c.post('/v1/auth/signin?locale=fr_FR', wrong);
    expect(french.json().message).toBe('Adresse e-mail ou mot de passe incorrect');
    // An unknown locale is no locale.
    expect((await c.post('/v1/auth/signin?locale=xx_XX', wrong)).json().message).toBe(INVALID_CREDENTIALS);
  });

  it('says an invalid link and the forgot-password answer in the locale', async () => {
    const c = await Client.create(server.app);
    const link = await c.get(`/v1/auth/links/${'x'.repeat(43)}?locale=it_IT`);
    expect(link.statusCode).toBe(400);
    expect(link.json().message).toBe(MESSAGES.linkInvalid.it_IT);
    const forgot = await c.post('/v1/auth/password/forgot?locale=gsw_CH', { email: 'a@b.test' });
    expect(forgot.statusCode).toBe(202);
    expect(forgot.json().message).toBe(MESSAGES.resetRequested.gsw_CH);
  });

  it('names a used-up plan and the period end in the locale, and field messages too', async () => {
    const vendor = await makeVendor(server.ctx);
    const ownerUser = await makeUser(server.ctx, { vendors: [vendor], role: 'owner' });
    const owner = await Client.signedIn(server.app, ownerUser.email, ownerUser.password);
    owner.vendorKey = vendor.key;
    const app = await makeChatApp(server.ctx, vendor, { model: await makeVendorModel(server.ctx, vendor) });
    const conversation = await makeConversation(server.ctx, app);
    const plan = await admin.post('/v1/admin/plans', {
      name: uniq('Plan '),
      price_minor: 0,
      currency: 'CHF',
      interval: 'month',
      limits: { requests: 0, members: 1 },
    });
    expect(plan.statusCode).toBe(201);
    const assigned = await admin.post(`/v1/admin/vendors/${vendor.id}/subscriptions`, {
      plan_id: plan.json().data.id,
    });
    expect(assigned.statusCode).toBe(201);
    const periodEnd = assigned.json().data.current_period_end as string;

    const refused = await owner.post(`/v1/conversations/${conversation.token}?locale=de_CH`, {
      content: 'hi',
    });
    expect(refused.statusCode, refused.body).toBe(402);
    expect(refused.json()).toMatchObject({ name: 'PaymentRequired', code: 60 });
    expect(refused.json().message).toContain('Anfragen des Plans für diesen Zeitraum sind aufgebraucht');
    expect(refused.json().message).toContain(formatDay(periodEnd.slice(0, 10), 'de_CH'));
    expect(refused.json().message).not.toMatch(/\d{4}-\d\d-\d\d/);

    // A message past the limit: the field says the limit, in the locale, with its digits grouped.
    const tooLong = await owner.post(`/v1/conversations/${conversation.token}?locale=de_CH`, {
      content: 'x'.repeat(100_001),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().errors).toEqual({
      content: "Eine Nachricht darf höchstens 100'000 Zeichen haben.",
    });

    const invited = await owner.post(`/v1/vendors/${vendor.id}/users?locale=fr_FR`, {
      email: `${uniq('p')}@x.test`,
      role: 'member',
    });
    expect(invited.statusCode).toBe(402);
    expect(invited.json().message).toBe(MESSAGES.planAllowsOneMember.fr_FR);

    const invalid = await owner.post(`/v1/vendors/${vendor.id}/users?locale=fr_FR`, {
      email: 'nope',
      role: 'x',
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toBe(MESSAGES.requestInvalid.fr_FR);
    expect(invalid.json().errors).toMatchObject({
      email: MESSAGES.validEmail.fr_FR,
      role: MESSAGES.chooseRole.fr_FR,
    });
  });

  it('says "not found", a provider refusal and rate limits in the locale; quoted messages as said', async () => {
    const vendor = await makeVendor(server.ctx);
    const ownerUser = await makeUser(server.ctx, { vendors: [vendor], role: 'owner' });
    const owner = await Client.signedIn(server.app, ownerUser.email, ownerUser.password);
    owner.vendorKey = vendor.key;
    const base = `/v1/vendors/${vendor.id}`;

    for (const [url, german, french] of [
      [`${base}/apps/999999`, 'App nicht gefunden', 'App introuvable'],
      [`${base}/users/abc`, 'Benutzer nicht gefunden', 'Utilisateur introuvable'],
      [`/v1/conversations/${'A'.repeat(43)}`, 'Unterhaltung nicht gefunden', 'Conversation introuvable'],
      ['/v1/nothing-here', 'GET /v1/nothing-here?locale=de_CH nicht gefunden', null],
    ] as const) {
      const de = await owner.get(`${url}?locale=de_CH`);
      expect(de.statusCode, url).toBe(404);
      expect(de.json().message, url).toBe(german);
      if (french) expect((await owner.get(`${url}?locale=fr_FR`)).json().message, url).toBe(french);
    }
    expect((await owner.get(`${base}/apps/999999`)).json().message).toBe('App not found');

    // A provider's refusal: the fixed parts in the locale, the provider's own message as it said it.
    const model = await owner.post(`${base}/avamodels/openai-compatible-chat/install`, {
      parameters: { base_url: fake.baseUrl, model: 'm', api_key: 'sk-test', cost_per_1k: 0 },
    });
    expect(model.statusCode, model.body).toBe(201);
    const app = (await owner.post(`${base}/apps`, { app_key: 'chatbot' })).json().data;
    await owner.put(`${base}/apps/${app.id}`, {
      name: app.name,
      completion_vendor_model_id: model.json().data.id,
    });
    const opened = await owner.post('/v1/conversations', {
      vendor_app_id: app.id,
      vendor_channel: 'management',
      parameters: {},
    });
    const token = opened.json().data.token as string;
    fake.chat({ kind: 'error', status: 401, body: { error: { message: 'Incorrect API key provided' } } });
    const sent = await owner.post(`/v1/conversations/${token}?locale=de_CH`, { content: 'Hallo' });
    expect(sent.statusCode, sent.body).toBe(200);
    const error = sent.json().data.find((m: { role: string }) => m.role === 'error').message as string;
    expect(error).toMatch(
      /^Das Modell konnte nicht antworten: der Server unter http:\S+ hat den API-Schlüssel abgelehnt \(HTTP 401\): Incorrect API key provided$/,
    );
    const page = await owner.get(`/v1/conversations/${token}?locale=fr_FR`);
    const stored = page.json().data.find((m: { role: string }) => m.role === 'error').message as string;
    expect(stored).toMatch(
      /^Le modèle n’a pas pu répondre : le serveur à l’adresse http:\S+ a refusé la clé d’API \(HTTP 401\) : Incorrect API key provided$/,
    );
    const english = (await owner.get(`/v1/conversations/${token}`)).json().data;
    expect(english.find((m: { role: string }) => m.role === 'error').message).toMatch(
      /^The model could not answer: .+ rejected the API key \(HTTP 401\): Incorrect API key provided$/,
    );
    fake.expectNoFailures();

    // Rate limits: an embed's visitor past the openings allowed per hour.
    const embed = await owner.post(`${base}/apps/${app.id}/embed`, { name: 'Site' });
    expect(embed.statusCode, embed.body).toBe(201);
    const openThroughEmbed = (query: string) =>
      server.app.inject({
        method: 'POST',
        url: `/v1/conversations${query}`,
        headers: { 'x-embedtoken': embed.json().data.token },
        payload: { vendor_app_id: app.id, vendor_channel: 'embed', parameters: {} },
      });
    expect((await openThroughEmbed('')).statusCode).toBe(201);
    const limited = await openThroughEmbed('?locale=fr_FR');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/^Trop de conversations ouvertes ici : 1 par heure au maximum\./);

    // A refused import, as the import dialog shows it.
    const datastore = await owner.post(`${base}/apps/${app.id}/datastores`, { name: 'faq' });
    expect(datastore.statusCode, datastore.body).toBe(201);
    const refusedImport = await owner.post(
      `/v1/datastores/${datastore.json().data.id}/docs/import?locale=fr_FR`,
      { mode: 'qa', data: JSON.stringify([{ Q: 'Where?', A: '' }]) },
    );
    expect(refusedImport.statusCode).toBe(400);
    expect(refusedImport.json().errors).toEqual({
      data: 'Élément 1 : « Q » et « A » ne doivent pas être vides.',
    });
    const importRefusal = async (mode: string, data: string) => {
      const answer = await owner.post(`/v1/datastores/${datastore.json().data.id}/docs/import?locale=fr_FR`, {
        mode,
        data,
      });
      expect(answer.statusCode, answer.body).toBe(400);
      return answer.json().errors.data as string;
    };
    // A CSV row the parser refuses: our words around the parser's own.
    expect(await importRefusal('csv', 'q,a\n"one","two"\n"three"\n')).toMatch(/^Ligne 3 : /);
    expect(await importRefusal('json', JSON.stringify([{ q: 'ok' }, { q: 'x'.repeat(70_000) }]))).toMatch(
      /^L’élément 2 fait \d+ octets ; un document peut en avoir 65536 au plus\.$/,
    );

    for (const text of [error, stored.replace('Incorrect API key provided', ''), limited.json().message]) {
      expect(text.replace(/Incorrect API key provided|http:\S+|HTTP/g, '')).not.toMatch(ENGLISH_WORDS);
    }
  });

  it('says what the request pipeline refuses in the locale: malformed JSON, an oversize body, no X-Vendor', async () => {
    const answers = [
      await admin.request({
        method: 'POST',
        url: '/v1/auth/signin?locale=de_CH',
        headers: { 'content-type': 'application/json' },
        payload: '{"identifier": ',
      }),
      await admin.request({
        method: 'POST',
        url: '/v1/auth/signin?locale=de_CH',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ identifier: 'a@b.test', secret: 'x'.repeat(2 * 1024 * 1024) }),
      }),
      await admin.get('/v1/conversations?locale=de_CH'),
    ];
    const said = answers.map((answer) => [answer.statusCode, answer.json().message]);
    expect(said[0]).toEqual([400, message('requestNotJson', {}, 'de_CH')]);
    expect(said[1]![0]).toBe(413);
    expect(said[1]![1]).toMatch(/^Der Inhalt der Anfrage ist zu gross/);
    expect(said[2]).toEqual([400, message('vendorHeaderRequired', {}, 'de_CH')]);
    for (const [, text] of said) expect(text).not.toMatch(ENGLISH_WORDS);
  });
});
