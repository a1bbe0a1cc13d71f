/**
 * A real SMTP server on a loopback port (the `smtp-server` package): it receives what the app mails,
 * parses each message (mailparser) and hands it to the test. With `refuseFrom` it answers 550 to that
 * sender, like a server that does not relay for it.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  /** The user name the client authenticated with, if any. */
  user: string | undefined;
}

export class SmtpFake {
  readonly received: ReceivedMail[] = [];
  private waiters: (() => void)[] = [];
  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(
    opts: { refuseFrom?: string; user?: string; password?: string } = {},
  ): Promise<SmtpFake> {
    let fake: SmtpFake | undefined;
    const server = new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS'],
      authOptional: !opts.user,
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === opts.user && auth.password === opts.password)
          return callback(null, { user: auth.username });
        return callback(new Error('Invalid username or password'));
      },
      onMailFrom(address, _session, callback) {
        if (opts.refuseFrom && address.address === opts.refuseFrom) {
          const err = Object.assign(new Error('Relaying denied for this sender'), { responseCode: 550 });
          return callback(err);
        }
        callback();
      },
      onData(stream, session, callback) {
        simpleParser(stream).then(
          (mail) => {
            fake!.received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              user: typeof session.user === 'string' ? session.user : undefined,
            });
            for (const w of fake!.waiters.splice(0)) w();
            callback();
          },
          (err: Error) => callback(err),
        );
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fake = new SmtpFake(server, (server.server.address() as AddressInfo).port);
    return fake;
  }

  /** The next mail to `to` (waits up to 10 s). */
  async mailTo(to: string, timeoutMs = 10_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find((m) => m.to.includes(to));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The first console link in a mail's text. */
export const linkIn = (text: string) =>
  /(https?:\/\/\S+\/(?:invitation|reset-password)\/[A-Za-z0-9_-]+)/.exec(text)?.[1];
