import { isIP } from 'node:net';
import type { Transporter } from 'nodemailer';
import type { OutboundGuard } from '../../platform/outbound/guard';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Where mail goes: a vendor's SMTP server or the instance's `SMTP_URL`. */
export type MailServer =
  | { url: string; from: string }
  | { host: string; port: number; secure: boolean; user: string; password: string | null; from: string };

/**
 * Mail through nodemailer's SMTP transport (its own connection handling, TLS and auth). A vendor's
 * server is reached through the outbound guard (ADR 0020): its host is resolved and checked, and
 * nodemailer connects to the checked address (TLS still verifies the host name). The instance's
 * `SMTP_URL` is the operator's own and is not guarded.
 */
export class Mailer {
  private readonly from: string;

  constructor(
    private readonly server: MailServer,
    private readonly outbound: Pick<OutboundGuard, 'addresses'>,
  ) {
    this.from = server.from;
  }

  /** Sends one message; rejects with the server's error text, or OutboundRefused before connecting. */
  async send(message: MailMessage): Promise<void> {
    const transport = await this.transport();
    try {
      await transport.sendMail({ from: this.from, ...message });
    } finally {
      transport.close();
    }
  }

  /** nodemailer is loaded on first use: most starts never send mail. */
  private async transport(): Promise<Transporter> {
    const { default: nodemailer } = await import('nodemailer');
    const server = this.server;
    if ('url' in server) return nodemailer.createTransport(server.url);
    const [address] = await this.outbound.addresses(server.host, server.port);
    return nodemailer.createTransport({
      host: address,
      port: server.port,
      secure: server.secure,
      ...(isIP(server.host) ? {} : { tls: { servername: server.host } }),
      auth: server.user ? { user: server.user, pass: server.password ?? '' } : undefined,
      // A console call waits for this: fail within seconds, not minutes.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
  }
}
