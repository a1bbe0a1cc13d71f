/**
 * Tenancy of people (docs/adr/0023-identity-across-tenants.md), each attack run as the attacker would run
 * it: two vendors with their owners and members, a mail sink, and a victim whose account, sessions and
 * memberships must stay as they were.
 */
import { INVITATION_SIGN_IN, LINK_INVALID } from '@llmor/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { schema } from '../../platform/db';
import { linkIn, SmtpFake } from '../../test/fakes/smtp';
import {
  Client,
  createListeningTestServer,
  createTestServer,
  type ListeningTestServer,
  makeApp,
  makeUser,
  makeVendor,
  type TestServer,
  uniq,
} from '../../test/harness';
import { RelayClient } from '../../test/relay-client';
import { UNKNOWN_CONVERSATION } from '../conversations/relay';
import type { VendorRow } from '../vendors/repo';

let smtp: SmtpFake;
beforeAll(async () => {
  smtp = await SmtpFake.start({ user: 'mailer', password: 'smtp-secret' });
});
afterAll(async () => {
  await smtp?.close();
});

/** A person's account, sessions and memberships: what no attack may change. */
async function personState(server: TestServer, email: string): Promise<string> {
  const [user] = await server.ctx.db
    .select()
    .from(schema.users)
    .where(sql`lower(${schema.users.email}) = lower(${email})`);
  if (!user) return 'no account';
  const memberships = await server.ctx.db
    .select()
    .from(schema.vendorUsers)
    .where(eq(schema.vendorUsers.userId, user.id))
    .orderBy(schema.vendorUsers.vendorId);
  const sessions = await server.ctx.db
    .select({ id: schema.sessions.id })
    .from(schema.sessions)
    .where(eq(schema.sessions.userId, user.id));
  return JSON.stringify({ user, memberships, sessions });
}

async function vendorWithOwner(server: TestServer, name: string) {
  const vendor = await makeVendor(server.ctx, name);
  const ownerUser = await makeUser(server.ctx, { vendors: [vendor], role: 'owner' });
  const owner = await Client.signedIn(server.app, ownerUser.email, ownerUser.password);
  owner.vendorKey = vendor.key;
  return { vendor, ownerUser, owner };
}

const invite = (owner: Client, vendor: VendorRow, email: string, extra: Record<string, unknown> = {}) =>
  owner.post(`/v1/vendors/${vendor.id}/users`, { email, role: 'owner', ...extra });

const tokenOf = (url: string) => url.split('/').at(-1)!;

async function configureVendorSmtp(owner: Client, vendor: VendorRow, from: string) {
  const res = await owner.put(`/v1/vendors/${vendor.id}/settings`, {
    smtp: { host: '127.0.0.1', port: smtp.port, user: 'mailer', password: 'smtp-secret', from },
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('an instance without a mail server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it("another vendor's invitation cannot set the password of an account that A's invitation created", async () => {
    const a = await vendorWithOwner(server, 'Victim Org');
    const b = await vendorWithOwner(server, 'Attacker Org');
    const email = `${uniq('new')}@x.test`;
    const fromA = await invite(a.owner, a.vendor, email);
    expect(fromA.statusCode, fromA.body).toBe(201);
    const linkA: string = fromA.json().invite_url;

    // The attacker "invites" the same address and is shown a link: it cannot choose a password.
    const fromB = await invite(b.owner, b.vendor, email);
    expect(fromB.statusCode, fromB.body).toBe(201);
    const linkB: string = fromB.json().invite_url;
    const before = await personState(server, email);
    const attacker = await Client.create(server.app);
    const info = await attacker.get(`/v1/auth/links/${tokenOf(linkB)}`);
    expect(info.json().data).toMatchObject({ purpose: 'invite', action: 'sign_in', email });
    const taken = await attacker.post('/v1/auth/invitations/accept', {
      token: tokenOf(linkB),
      password: 'attacker password',
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().message).toBe(INVITATION_SIGN_IN);
    expect((await attacker.get('/v1/auth/session/user')).json().authenticated).toBe(false);
    expect(await personState(server, email)).toBe(before);

    // A's own link was not retired by B's invitation: the person it created chooses the password.
    const person = await Client.create(server.app);
    const accepted = await person.post('/v1/auth/invitations/accept', {
      token: tokenOf(linkA),
      password: 'the real password',
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await person.get('/v1/vendors')).json().data.map((v: { id: number }) => v.id)).toEqual([
      a.vendor.id,
    ]);
    // B's invitation waits for the person's consent, given signed in.
    const pending = (await person.get('/v1/account/invitations')).json().data;
    expect(pending).toEqual([
      expect.objectContaining({ vendor_id: b.vendor.id, vendor_name: 'Attacker Org' }),
    ]);
    expect((await person.post('/v1/auth/invitations/accept', { token: tokenOf(linkB) })).statusCode).toBe(
      200,
    );
    expect(
      (await person.get('/v1/vendors'))
        .json()
        .data.map((v: { id: number }) => v.id)
        .sort(),
    ).toEqual([a.vendor.id, b.vendor.id].sort());
  });

  it('an existing account is invited, never added, and the answer tells nothing about it', async () => {
    const a = await vendorWithOwner(server, 'Home Org');
    const b = await vendorWithOwner(server, 'Curious Org');
    const victim = await makeUser(server.ctx, { vendors: [a.vendor], email: `${uniq('victim')}@x.test` });
    const victimSession = await Client.signedIn(server.app, victim.email, victim.password);
    const before = await personState(server, victim.email);

    const existing = await invite(b.owner, b.vendor, victim.email, { firstname: 'Typed', role: 'member' });
    const fresh = await invite(b.owner, b.vendor, `${uniq('nobody')}@x.test`, {
      firstname: 'Typed',
      role: 'member',
    });
    for (const res of [existing, fresh]) expect(res.statusCode, res.body).toBe(201);
    const shape = (res: typeof existing) => {
      const { id: _id, email: _email, created_at: _at, ...rest } = res.json().data;
      return { ...rest, link: typeof res.json().invite_url };
    };
    expect(shape(existing)).toEqual(shape(fresh));
    expect(existing.json().data).toMatchObject({
      firstname: 'Typed',
      lastname: '',
      invited: true,
      last_login: null,
    });
    expect(Date.parse(existing.json().data.created_at)).toBeGreaterThan(Date.now() - 60_000);
    // The victim is not in B, and the account is as it was but for the pending row.
    expect((await victimSession.get(`/v1/vendors/${b.vendor.id}`)).statusCode).toBe(404);
    const link = existing.json().invite_url as string;
    const attacker = await Client.create(server.app);
    expect(
      (
        await attacker.post('/v1/auth/invitations/accept', {
          token: tokenOf(link),
          password: 'attacker pw 1',
        })
      ).statusCode,
    ).toBe(400);
    const [user] = await server.ctx.db.select().from(schema.users).where(eq(schema.users.id, victim.id));
    expect(user!.passwordHash).toBe(JSON.parse(before).user.passwordHash);
    // Someone signed in as another person cannot accept it either.
    expect((await b.owner.post('/v1/auth/invitations/accept', { token: tokenOf(link) })).json().message).toBe(
      INVITATION_SIGN_IN,
    );
    // B cannot rename the person, now or after they join.
    const renamed = await b.owner.put(`/v1/vendors/${b.vendor.id}/users/${victim.id}`, {
      firstname: 'Pwned',
    });
    expect(renamed.statusCode).toBe(400);
    // The victim declines from their account; the link stops working.
    expect((await victimSession.delete(`/v1/account/invitations/${b.vendor.id}`)).statusCode).toBe(204);
    expect(
      (await victimSession.post('/v1/auth/invitations/accept', { token: tokenOf(link) })).json().message,
    ).toBe(LINK_INVALID);
    expect(await personState(server, victim.email)).toBe(before);
    expect((await b.owner.get(`/v1/vendors/${b.vendor.id}/users/${victim.id}`)).statusCode).toBe(404);
  });

  it('a vendor’s own SMTP carries its invitations, but never a link that sets an existing account’s password', async () => {
    const a = await vendorWithOwner(server, 'Mail Home');
    const b = await vendorWithOwner(server, 'Mail Attacker');
    await configureVendorSmtp(b.owner, b.vendor, 'attacker@b.test');
    const email = `${uniq('pending')}@x.test`;
    expect((await invite(a.owner, a.vendor, email)).statusCode).toBe(201);
    const res = await invite(b.owner, b.vendor, email);
    expect(res.statusCode).toBe(201);
    const before = await personState(server, email);
    expect(res.json().invite_url).toBeUndefined();
    const mail = await smtp.mailTo(email);
    expect(mail.from).toBe('attacker@b.test');
    const attacker = await Client.create(server.app);
    const used = await attacker.post('/v1/auth/invitations/accept', {
      token: tokenOf(linkIn(mail.text)!),
      password: 'attacker password',
    });
    expect(used.json().message).toBe(INVITATION_SIGN_IN);
    expect(await personState(server, email)).toBe(before);
    // Forgot-password never goes through a vendor's SMTP: without an instance mail server no link is made.
    const tokensBefore = (await server.ctx.db.select().from(schema.userTokens)).length;
    await attacker.post('/v1/auth/password/forgot', { email });
    const member = await makeUser(server.ctx, { vendors: [b.vendor] });
    await attacker.post('/v1/auth/password/forgot', { email: member.email });
    await new Promise((resolve) => setImmediate(resolve));
    expect((await server.ctx.db.select().from(schema.userTokens)).length).toBe(tokensBefore);
    expect(smtp.received.filter((m) => m.text.includes('reset-password'))).toEqual([]);
  });

  it('members cannot read or change an app’s Slack integration (owners only)', async () => {
    const a = await vendorWithOwner(server, 'Slack Org');
    const memberUser = await makeUser(server.ctx, { vendors: [a.vendor] });
    const member = await Client.signedIn(server.app, memberUser.email, memberUser.password);
    const app = await makeApp(server.ctx, a.vendor);
    const url = `/v1/vendors/${a.vendor.id}/apps/${app.id}/integrations/slack`;
    for (const res of [
      await member.get(url),
      await member.post(url, { slack_bot_name: 'Member bot' }),
      await member.put(url, { slack_bot_name: 'Member bot' }),
    ]) {
      expect(res.statusCode).toBe(404);
    }
  });
});

describe('an instance with its own mail server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({
      env: { SMTP_URL: `smtp://mailer:smtp-secret@127.0.0.1:${smtp.port}`, MAIL_FROM: 'llmor@instance.test' },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('mails every invitation through the instance, never the vendor’s SMTP, and shows no link', async () => {
    const b = await vendorWithOwner(server, 'Own SMTP');
    await configureVendorSmtp(b.owner, b.vendor, 'sneaky@b.test');
    const email = `${uniq('mailbox')}@x.test`;
    const res = await invite(b.owner, b.vendor, email);
    expect(res.json().invite_url).toBeUndefined();
    const mail = await smtp.mailTo(email);
    expect(mail.from).toBe('llmor@instance.test');
    // Only the mailbox holder has it, so it may set the first password.
    const holder = await Client.create(server.app);
    const info = await holder.get(`/v1/auth/links/${tokenOf(linkIn(mail.text)!)}`);
    expect(info.json().data.action).toBe('set_password');
  });

  it('builds every link from the server’s address, never from Host or X-Forwarded-Host', async () => {
    const person = await makeUser(server.ctx, { email: `${uniq('reset')}@x.test` });
    const attacker = await Client.create(server.app);
    const res = await attacker.request({
      method: 'POST',
      url: '/v1/auth/password/forgot',
      payload: { email: person.email },
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    });
    expect(res.statusCode).toBe(202);
    const link = linkIn((await smtp.mailTo(person.email)).text)!;
    expect(link.startsWith(`${server.ctx.publicUrl}/reset-password/`)).toBe(true);
    expect(link).not.toContain('evil.example');
  });

  it('a password reset signs every other session of the person out', async () => {
    const person = await makeUser(server.ctx, { email: `${uniq('resetter')}@x.test` });
    const laptop = await Client.signedIn(server.app, person.email, person.password);
    expect((await laptop.get('/v1/account')).statusCode).toBe(200);
    const phone = await Client.create(server.app);
    await phone.post('/v1/auth/password/forgot', { email: person.email });
    const link = linkIn((await smtp.mailTo(person.email)).text)!;
    const reset = await phone.post('/v1/auth/password/reset', {
      token: tokenOf(link),
      password: 'brand new pw',
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await laptop.get('/v1/account')).statusCode).toBe(401);
    expect((await phone.get('/v1/account')).statusCode).toBe(200);
  });
});

describe('sessions', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({
      env: { SESSIONS_PER_ADDRESS_PER_HOUR: '5', SESSION_IDLE_MINUTES: '60', SESSION_MAX_DAYS: '2' },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const openFrom = (remoteAddress: string) =>
    server.app.inject({ method: 'POST', url: '/v1/auth/session', remoteAddress });

  it('limits the sessions one address opens, whatever X-Forwarded-For says', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await server.app.inject({
        method: 'POST',
        url: '/v1/auth/session',
        remoteAddress: '10.20.0.1',
        headers: { 'x-forwarded-for': `198.51.100.${i}` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
    expect((await openFrom('10.20.0.2')).statusCode).toBe(201);
  });

  it('end after the idle and the absolute lifetimes', async () => {
    const person = await makeUser(server.ctx);
    const c = await Client.signedIn(server.app, person.email, person.password);
    const at = (offsetSeconds: number) => {
      server.clock.offsetSeconds = offsetSeconds;
      const timestamp = Math.floor(Date.now() / 1000) + offsetSeconds;
      return server.app.inject({
        method: 'GET',
        url: '/v1/account',
        headers: { 'x-accesstoken': c.accessToken('GET', '/v1/account', timestamp) },
      });
    };
    onTestFinished(() => {
      server.clock.offsetSeconds = 0;
    });
    // Used every 50 minutes, it lives on past the idle hour…
    for (let minutes = 50; minutes <= 200; minutes += 50) {
      expect((await at(minutes * 60)).statusCode, `${minutes} min`).toBe(200);
    }
    // …until its absolute lifetime ends it, however busy.
    const late = await at(2 * 86_400 + 60);
    expect(late.statusCode).toBe(401);
    expect(late.json().message).toContain('expired');

    server.clock.offsetSeconds = 0;
    const idle = await Client.signedIn(server.app, person.email, person.password);
    server.clock.offsetSeconds = 61 * 60;
    const stamp = Math.floor(Date.now() / 1000) + 61 * 60;
    const res = await server.app.inject({
      method: 'GET',
      url: '/v1/account',
      headers: { 'x-accesstoken': idle.accessToken('GET', '/v1/account', stamp) },
    });
    expect(res.statusCode).toBe(401);
  });

  it('the account page: names, password change that signs out elsewhere, sessions', async () => {
    const vendor = await makeVendor(server.ctx);
    const person = await makeUser(server.ctx, { vendors: [vendor], role: 'owner' });
    const here = await Client.signedIn(server.app, person.email, person.password);
    const there = await Client.signedIn(server.app, person.email, person.password);
    expect(
      (await here.put('/v1/account', { firstname: 'Ada', lastname: 'Lovelace' })).json().data,
    ).toMatchObject({
      firstname: 'Ada',
      lastname: 'Lovelace',
    });
    expect((await here.put('/v1/account', { email: 'other@x.test' })).statusCode).toBe(400);
    const member = (await here.get(`/v1/vendors/${vendor.id}/users/${person.id}`)).json().data;
    expect(member).toMatchObject({ firstname: 'Ada', lastname: 'Lovelace' });
    const sessions = (await here.get('/v1/account/sessions')).json().data;
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);

    const wrong = await here.post('/v1/account/password', {
      current_password: 'nope',
      password: 'another pw 1',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toHaveProperty('current_password');
    expect((await there.get('/v1/account')).statusCode).toBe(200);
    const changed = await here.post('/v1/account/password', {
      current_password: person.password,
      password: 'another pw 1',
    });
    expect(changed.json()).toEqual({ ended: 1 });
    expect((await there.get('/v1/account')).statusCode).toBe(401);
    expect((await here.get('/v1/account')).statusCode).toBe(200);
    await Client.signedIn(server.app, person.email, 'another pw 1');
    expect((await here.post('/v1/account/sessions/signout-others')).json()).toEqual({ ended: 1 });
  });
});

describe('the relay admits the caller the HTTP call would, and revocation evicts it', () => {
  let server: ListeningTestServer;
  beforeAll(async () => {
    server = await createListeningTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  async function conversationOf(vendorKey: string, c: Client, appId: number) {
    c.vendorKey = vendorKey;
    const res = await c.post('/v1/conversations', { vendor_app_id: appId, vendor_channel: 'management' });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.token as string;
  }

  it('a deactivated member stops hearing a management conversation at once; another vendor never joins', async () => {
    const a = await vendorWithOwner(server, 'Relay Org');
    const memberUser = await makeUser(server.ctx, { vendors: [a.vendor] });
    const member = await Client.signedIn(server.app, memberUser.email, memberUser.password);
    const app = await makeApp(server.ctx, a.vendor);
    const token = await conversationOf(a.vendor.key, a.owner, app.id);
    const sockets: RelayClient[] = [];
    onTestFinished(() => {
      for (const s of sockets) s.close();
    });
    const connect = async (auth: Parameters<typeof RelayClient.connect>[1]) => {
      const s = await RelayClient.connect(server.url, auth);
      sockets.push(s);
      return s;
    };

    // The token alone, or another vendor's owner, reads as an unknown conversation.
    const other = await vendorWithOwner(server, 'Other Relay Org');
    expect((await (await connect(other.owner.relayAuth())).ask('join', token)).error).toBe(
      UNKNOWN_CONVERSATION,
    );
    expect((await (await connect({})).ask('join', token)).ok).toBe(false);

    const watching = await connect(member.relayAuth());
    expect(await watching.ask('join', token)).toEqual({ ok: true });
    const evicted = watching.disconnected();
    const res = await a.owner.put(`/v1/vendors/${a.vendor.id}/users/${memberUser.id}`, { active: false });
    expect(res.statusCode).toBe(200);
    await evicted;
    const again = await connect(member.relayAuth());
    expect((await again.ask('join', token)).error).toBe(UNKNOWN_CONVERSATION);

    // Signing out closes the session's sockets too.
    const ownerSocket = await connect(a.owner.relayAuth());
    expect(await ownerSocket.ask('join', token)).toEqual({ ok: true });
    const closed = ownerSocket.disconnected();
    expect((await a.owner.post('/v1/auth/signout')).statusCode).toBe(204);
    await closed;
  });

  it('an API client turned off stops hearing its conversations at once', async () => {
    const a = await vendorWithOwner(server, 'Client Relay Org');
    const app = await makeApp(server.ctx, a.vendor);
    const created = await a.owner.post(`/v1/vendors/${a.vendor.id}/apps/${app.id}/clients`, {
      name: 'Program',
    });
    const { id: clientId, full_token: fullToken } = created.json().data;
    const opened = await server.app.inject({
      method: 'POST',
      url: '/v1/conversations',
      headers: { 'x-vendortoken': fullToken, 'x-vendor': a.vendor.key },
      payload: { vendor_app_id: app.id, vendor_channel: 'api' },
    });
    const token = opened.json().data.token;
    const socket = await RelayClient.connect(server.url, { vendor_token: fullToken, vendor: a.vendor.key });
    onTestFinished(() => socket.close());
    expect(await socket.ask('join', token)).toEqual({ ok: true });
    const evicted = socket.disconnected();
    const off = await a.owner.put(`/v1/vendors/${a.vendor.id}/apps/${app.id}/clients/${clientId}`, {
      name: 'Program',
      active: false,
    });
    expect(off.statusCode, off.body).toBe(200);
    await evicted;
    const again = await RelayClient.connect(server.url, { vendor_token: fullToken, vendor: a.vendor.key });
    onTestFinished(() => again.close());
    expect((await again.ask('join', token)).ok).toBe(false);
  });
});
