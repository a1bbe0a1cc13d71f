import { LAST_OWNER, LINK_INVALID, PASSWORD_FORGOT_ANSWER } from '@llmor/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { schema } from '../../platform/db';
import { linkIn, SmtpFake } from '../../test/fakes/smtp';
import {
  Client,
  createListeningTestServer,
  createTestServer,
  makeUser,
  makeVendor,
  type TestServer,
  uniq,
} from '../../test/harness';

let server: TestServer;
let smtp: SmtpFake;
let admin: Client;

beforeAll(async () => {
  server = await createTestServer();
  smtp = await SmtpFake.start({ user: 'mailer', password: 'smtp-secret' });
  const su = await makeUser(server.ctx, { isSu: true });
  admin = await Client.signedIn(server.app, su.email, su.password);
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

/** Everything in the database, to prove a refused call changed nothing. */
async function snapshot(on: TestServer = server): Promise<string> {
  const parts: string[] = [];
  for (const table of ['users', 'vendors', 'vendor_users', 'user_tokens', 'vendor_settings']) {
    const rows = await on.ctx.db.execute(sql.raw(`select * from ${table} order by 1, 2`));
    parts.push(JSON.stringify((rows as unknown as { rows: unknown[] }).rows ?? rows));
  }
  return parts.join('\n');
}

/** A fresh browser session that opens a link's token and sets a password with it. */
async function followLink(
  url: string,
  password: string,
  path: 'invitations/accept' | 'password/reset',
  on: TestServer = server,
) {
  const token = url.split('/').at(-1)!;
  const visitor = await Client.create(on.app);
  const info = await visitor.get(`/v1/auth/links/${token}`);
  const used = await visitor.post(`/v1/auth/${path}`, { token, password });
  return { visitor, token, info, used };
}

async function configureSmtp(owner: Client, vendorId: number) {
  const res = await owner.put(`/v1/vendors/${vendorId}/settings`, {
    smtp: {
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      user: 'mailer',
      password: 'smtp-secret',
      from: 'team@acme.test',
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

describe('onboarding a vendor: admin creates it, the owner accepts, invites a colleague', () => {
  it('runs end to end with the link answered (no mail server), then mails through the vendor SMTP', async () => {
    const key = uniq('acme');
    const ownerEmail = `${uniq('owner')}@acme.test`;
    const created = await admin.post('/v1/admin/vendors', {
      key,
      name: 'Acme',
      currency: 'EUR',
      owner_email: ownerEmail,
    });
    expect(created.statusCode, created.body).toBe(201);
    const vendor = created.json().data;
    expect(vendor).toMatchObject({
      key,
      name: 'Acme',
      currency: 'EUR',
      active: true,
      member_count: 1,
      app_count: 0,
    });
    const inviteUrl: string = created.json().invite_url;
    // Built from the server's own address (no PUBLIC_URL here), never from the request's Host.
    expect(inviteUrl).toMatch(/^http:\/\/127\.0\.0\.1:3000\/invitation\/[A-Za-z0-9_-]{40,}$/);

    // The token is stored hashed only.
    const token = inviteUrl.split('/').at(-1)!;
    const stored = await server.ctx.db.select().from(schema.userTokens);
    expect(JSON.stringify(stored)).not.toContain(token);

    const {
      visitor: owner,
      info,
      used,
    } = await followLink(inviteUrl, 'owner password 1', 'invitations/accept');
    expect(info.json().data).toEqual({
      purpose: 'invite',
      action: 'set_password',
      email: ownerEmail,
      firstname: '',
      lastname: '',
      vendor_name: 'Acme',
    });
    expect(used.statusCode, used.body).toBe(200);
    expect(used.json().data.email).toBe(ownerEmail);
    // The session is signed in and sees Acme only.
    const vendors = (await owner.get('/v1/vendors')).json().data;
    expect(vendors.map((v: { key: string }) => v.key)).toEqual([key]);
    // Single use.
    expect((await followLink(inviteUrl, 'another password', 'invitations/accept')).used.json().message).toBe(
      LINK_INVALID,
    );
    // The password works for a normal sign-in.
    await Client.signedIn(server.app, ownerEmail, 'owner password 1');

    // SMTP settings: the password is write-only and sealed; a test mail goes through the real server.
    await configureSmtp(owner, vendor.id);
    const settings = (await owner.get(`/v1/vendors/${vendor.id}/settings`)).json().data;
    expect(settings.smtp).toEqual({
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      user: 'mailer',
      from: 'team@acme.test',
      password_set: true,
      configured: true,
    });
    expect(JSON.stringify(settings)).not.toContain('smtp-secret');
    const row = await server.ctx.db
      .select()
      .from(schema.vendorSettings)
      .where(eq(schema.vendorSettings.vendorId, vendor.id));
    expect(JSON.stringify(row)).not.toContain('smtp-secret');
    const test = await owner.post(`/v1/vendors/${vendor.id}/settings/smtp/test`, { to: 'check@acme.test' });
    expect(test.statusCode, test.body).toBe(200);
    const testMail = await smtp.mailTo('check@acme.test');
    expect(testMail).toMatchObject({ from: 'team@acme.test', user: 'mailer' });

    // The owner invites a new colleague: mailed through the vendor's SMTP (the instance has no mail server),
    // so no link in the answer; the link may set a password because this invitation created the account.
    const colleagueEmail = `${uniq('dev')}@acme.test`;
    const invited = await owner.post(`/v1/vendors/${vendor.id}/users`, {
      email: colleagueEmail,
      firstname: 'Dana',
      lastname: 'Dev',
      role: 'member',
    });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(invited.json().invite_url).toBeUndefined();
    expect(invited.json().data).toMatchObject({
      email: colleagueEmail,
      role: 'member',
      invited: true,
      active: true,
    });
    const mail = await smtp.mailTo(colleagueEmail);
    expect(mail.subject).toContain('Acme');
    const {
      visitor: member,
      info: offered,
      used: accepted,
    } = await followLink(linkIn(mail.text)!, 'member password', 'invitations/accept');
    expect(accepted.statusCode, accepted.body).toBe(200);
    // The names the inviter typed: offered on the link's page, and still the person's once accepted.
    expect(offered.json().data).toMatchObject({ firstname: 'Dana', lastname: 'Dev' });
    expect(accepted.json().data).toMatchObject({ firstname: 'Dana', lastname: 'Dev' });
    expect((await member.get('/v1/vendors')).json().data.map((v: { key: string }) => v.key)).toEqual([key]);
    const list = (await owner.get(`/v1/vendors/${vendor.id}/users?order=email`)).json();
    expect(list.total_count).toBe(2);
    expect(list.data.find((m: { email: string }) => m.email === colleagueEmail)).toMatchObject({
      invited: false,
      firstname: 'Dana',
      lastname: 'Dev',
    });

    // The member may build apps but sees no owner route: each answers 404 and changes nothing.
    expect((await member.get(`/v1/vendors/${vendor.id}/apps`)).statusCode).toBe(200);
    const ownerRoutes = server.routes.filter((r) => 'role' in r.access && r.access.role === 'owner');
    expect(ownerRoutes.length).toBeGreaterThanOrEqual(9);
    const before = await snapshot();
    const memberId = invited.json().data.id;
    for (const r of ownerRoutes) {
      const url = r.url.replace(':vendorId', String(vendor.id)).replace(':userId', String(memberId));
      const res = await member.request({
        method: r.method,
        url,
        ...(r.method === 'GET' || r.method === 'DELETE'
          ? {}
          : { payload: { email: 'x@y.test', role: 'owner', to: 'x@y.test' } }),
      });
      expect(res.statusCode, `${r.method} ${url}`).toBe(404);
    }
    expect(await snapshot()).toBe(before);
  });
});

describe('members: roles, the last owner, and revocation at once', () => {
  it('refuses to lose the last owner, and a deactivated or removed member loses the vendor on the next call', async () => {
    const vendor = await makeVendor(server.ctx);
    const ownerUser = await makeUser(server.ctx, { vendors: [vendor], role: 'owner' });
    const memberUser = await makeUser(server.ctx, { vendors: [vendor] });
    const owner = await Client.signedIn(server.app, ownerUser.email, ownerUser.password);
    const member = await Client.signedIn(server.app, memberUser.email, memberUser.password);
    const base = `/v1/vendors/${vendor.id}/users`;

    const before = await snapshot();
    for (const res of [
      await owner.put(`${base}/${ownerUser.id}`, { role: 'member' }),
      await owner.put(`${base}/${ownerUser.id}`, { active: false }),
      await owner.delete(`${base}/${ownerUser.id}`),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(LAST_OWNER);
    }
    expect(await snapshot()).toBe(before);
    // Bad input, unknown ids: clear errors, nothing changes.
    expect((await owner.put(`${base}/${memberUser.id}`, { role: 'admin' })).statusCode).toBe(400);
    expect((await owner.put(`${base}/999999`, { role: 'owner' })).statusCode).toBe(404);
    expect((await owner.put(`${base}/abc`, { role: 'owner' })).statusCode).toBe(404);
    expect((await owner.post(base, { email: 'not an email', role: 'member' })).json().errors).toHaveProperty(
      'email',
    );
    expect((await owner.post(base, { email: memberUser.email, role: 'member' })).statusCode).toBe(409);
    expect(await snapshot()).toBe(before);

    // The member is served from the session cache…
    expect((await member.get(`/v1/vendors/${vendor.id}`)).statusCode).toBe(200);
    // …and still loses the vendor on the very next call after being deactivated (no cache window).
    expect((await owner.put(`${base}/${memberUser.id}`, { active: false })).json().data.active).toBe(false);
    expect((await member.get(`/v1/vendors/${vendor.id}`)).statusCode).toBe(404);
    expect((await member.get('/v1/vendors')).json().data).toEqual([]);
    expect((await owner.put(`${base}/${memberUser.id}`, { active: true, role: 'owner' })).statusCode).toBe(
      200,
    );
    expect((await member.get(`/v1/vendors/${vendor.id}/users`)).statusCode).toBe(200);
    // Two owners now: the first may step down; then removing the other would leave none.
    expect((await owner.put(`${base}/${ownerUser.id}`, { role: 'member' })).statusCode).toBe(200);
    expect((await member.delete(`${base}/${memberUser.id}`)).statusCode).toBe(409);
    expect((await member.put(`${base}/${ownerUser.id}`, { role: 'owner' })).statusCode).toBe(200);
    expect((await owner.delete(`${base}/${memberUser.id}`)).statusCode).toBe(204);
    expect((await member.get(`/v1/vendors/${vendor.id}/apps`)).statusCode).toBe(404);
  });
});

describe('admin: superusers only', () => {
  it('answers 404 to everyone else on every superuser route, validates, and deactivates vendors', async () => {
    const vendor = await makeVendor(server.ctx);
    const ownerUser = await makeUser(server.ctx, { vendors: [vendor], role: 'owner' });
    const owner = await Client.signedIn(server.app, ownerUser.email, ownerUser.password);
    const adminRoutes = server.routes.filter((r) => r.access.auth === 'superuser');
    expect(adminRoutes.length).toBeGreaterThanOrEqual(5);
    const before = await snapshot();
    for (const r of adminRoutes) {
      const url = r.url.replace(':vendorId', String(vendor.id));
      const res = await owner.request({
        method: r.method,
        url,
        ...(r.method === 'GET'
          ? {}
          : { payload: { key: 'x1', name: 'X', currency: 'CHF', owner_email: 'a@b.test' } }),
      });
      expect(res.statusCode, `${r.method} ${url}`).toBe(404);
    }
    expect(
      (
        await admin.post('/v1/admin/vendors', { key: 'UPPER', name: '', currency: 'euro', owner_email: 'x' })
      ).json().errors,
    ).toEqual(
      expect.objectContaining({
        key: expect.anything(),
        name: expect.anything(),
        currency: expect.anything(),
        owner_email: expect.anything(),
      }),
    );
    expect(
      (
        await admin.post('/v1/admin/vendors', {
          key: vendor.key,
          name: 'Dup',
          currency: 'CHF',
          owner_email: 'dup@x.test',
        })
      ).statusCode,
    ).toBe(409);
    expect(await snapshot()).toBe(before);

    const listed = (await admin.get(`/v1/admin/vendors?search=${encodeURIComponent(vendor.key)}`)).json();
    expect(listed.filter_count).toBe(1);
    expect(listed.data[0]).toMatchObject({ id: vendor.id, member_count: 1, active: true, plan: null });
    expect((await admin.get(`/v1/admin/vendors/${vendor.id}/subscriptions`)).json()).toEqual({
      data: [],
      total_count: 0,
      filter_count: 0,
    });

    // An inactive vendor cannot be selected or used by its members.
    expect((await owner.get(`/v1/vendors/${vendor.id}/apps`)).statusCode).toBe(200);
    expect((await admin.put(`/v1/admin/vendors/${vendor.id}`, { active: false })).json().data.active).toBe(
      false,
    );
    expect((await owner.get(`/v1/vendors/${vendor.id}/apps`)).statusCode).toBe(404);
    expect((await owner.get('/v1/vendors')).json().data).toEqual([]);
    const session = (await owner.get('/v1/auth/session/user')).json();
    expect(session.vendor).toBeNull();
  });
});

describe('forgot password', () => {
  it('answers the same for any address, mails a single-use one-hour link, and refuses bad links', async () => {
    const instance = await createTestServer({
      env: { SMTP_URL: `smtp://mailer:smtp-secret@127.0.0.1:${smtp.port}`, MAIL_FROM: 'llmor@instance.test' },
    });
    onTestFinished(() => instance.close());
    const vendor = await makeVendor(instance.ctx);
    const ownerUser = await makeUser(instance.ctx, { vendors: [vendor], role: 'owner' });
    const visitor = await Client.create(instance.app);

    const unknown = await visitor.post('/v1/auth/password/forgot', { email: `${uniq('nobody')}@acme.test` });
    const known = await visitor.post('/v1/auth/password/forgot', { email: ownerUser.email.toUpperCase() });
    for (const res of [unknown, known]) {
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ message: PASSWORD_FORGOT_ANSWER });
    }
    const mail = await smtp.mailTo(ownerUser.email);
    const url = linkIn(mail.text)!;
    expect(url).toMatch(/\/reset-password\//);
    expect(mail.from).toBe('llmor@instance.test');

    const before = await snapshot(instance);
    for (const token of [url.split('/').at(-1)!.replace(/.$/, 'x'), 'short', 'A'.repeat(43)]) {
      const res = await visitor.post('/v1/auth/password/reset', { token, password: 'new password 1' });
      expect(res.statusCode, token).toBe(400);
    }
    expect(
      (await visitor.post('/v1/auth/password/reset', { token: url.split('/').at(-1), password: 'short' }))
        .statusCode,
    ).toBe(400);
    expect(await snapshot(instance)).toBe(before);

    const { used } = await followLink(url, 'new password 1', 'password/reset', instance);
    expect(used.statusCode, used.body).toBe(200);
    await Client.signedIn(instance.app, ownerUser.email, 'new password 1');
    const old = await (await Client.create(instance.app)).post('/v1/auth/signin', {
      identifier: ownerUser.email,
      secret: ownerUser.password,
    });
    expect(old.statusCode).toBe(401);
    expect((await followLink(url, 'again password', 'password/reset', instance)).used.statusCode).toBe(400);

    // An expired link is refused too.
    await visitor.post('/v1/auth/password/forgot', { email: ownerUser.email });
    await expect
      .poll(() => smtp.received.filter((m) => m.to.includes(ownerUser.email)).length, { timeout: 10_000 })
      .toBe(2);
    const second = linkIn(smtp.received.filter((m) => m.to.includes(ownerUser.email)).at(-1)!.text)!;
    await instance.ctx.db.update(schema.userTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    expect(
      (await followLink(second, 'expired password', 'password/reset', instance)).used.json().message,
    ).toBe(LINK_INVALID);
  });

  it('reports the mail server’s refusal of a test mail as a clear 400', async () => {
    const refusing = await SmtpFake.start({ refuseFrom: 'blocked@acme.test' });
    try {
      const vendor = await makeVendor(server.ctx);
      const ownerUser = await makeUser(server.ctx, { vendors: [vendor], role: 'owner' });
      const owner = await Client.signedIn(server.app, ownerUser.email, ownerUser.password);
      expect(
        (await owner.post(`/v1/vendors/${vendor.id}/settings/smtp/test`, { to: 'a@b.test' })).statusCode,
      ).toBe(400);
      await owner.put(`/v1/vendors/${vendor.id}/settings`, {
        smtp: { host: '127.0.0.1', port: refusing.port, from: 'blocked@acme.test' },
      });
      const res = await owner.post(`/v1/vendors/${vendor.id}/settings/smtp/test`, { to: 'a@b.test' });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('Relaying denied');
      expect(refusing.received).toEqual([]);
    } finally {
      await refusing.close();
    }
  });
});

describe('the instance mail server', () => {
  it('mails invitations through SMTP_URL when the vendor has no SMTP settings of its own', async () => {
    const instance = await createListeningTestServer({
      env: { SMTP_URL: `smtp://mailer:smtp-secret@127.0.0.1:${smtp.port}`, MAIL_FROM: 'llmor@instance.test' },
    });
    try {
      const vendor = await makeVendor(instance.ctx);
      const ownerUser = await makeUser(instance.ctx, { vendors: [vendor], role: 'owner' });
      const owner = await Client.signedIn(instance.app, ownerUser.email, ownerUser.password);
      const email = `${uniq('guest')}@acme.test`;
      const invited = await owner.post(`/v1/vendors/${vendor.id}/users`, { email, role: 'member' });
      expect(invited.statusCode, invited.body).toBe(201);
      expect(invited.json().invite_url).toBeUndefined();
      const mail = await smtp.mailTo(email);
      expect(mail.from).toBe('llmor@instance.test');
      expect(linkIn(mail.text)).toMatch(/\/invitation\//);
      expect((await owner.get('/v1/auth/session/user')).json().app).toMatchObject({
        instance_mail: true,
        default_locale: 'en_US',
      });

      // The vendor's default language: its invitations are in it, and so is the console of members who
      // never chose a language.
      expect((await owner.put(`/v1/vendors/${vendor.id}/settings`, { locale: 'fr_FR' })).statusCode).toBe(
        200,
      );
      const guest = `${uniq('guest-fr')}@acme.test`;
      expect(
        (await owner.post(`/v1/vendors/${vendor.id}/users`, { email: guest, role: 'member' })).statusCode,
      ).toBe(201);
      const french = await smtp.mailTo(guest);
      expect(french.subject).toBe(`Vous êtes invité·e à rejoindre ${vendor.name} sur llmor`);
      expect(french.text).toContain('Ouvrez ce lien dans les 7 jours');
      expect(linkIn(french.text)).toMatch(/\/invitation\//);
      owner.vendorKey = vendor.key;
      expect((await owner.get('/v1/auth/session/user')).json().app.default_locale).toBe('fr_FR');
    } finally {
      await instance.close();
    }
  });
});
