import type { Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Where mail goes: a vendor's SMTP server or the instance's `SMTP_URL`. */
export type MailServer =
  | { url: string; from: string }
  | { host: string; port: number; secure: boolean; user: string; password: string | null; from: string };

/** Mail through nodemailer's SMTP transport (its own connection handling, TLS and auth). */
export class Mailer {
  /** nodemailer is loaded on first use: most starts never send mail. */
  private readonly transport: Promise<Transporter>;
  private readonly from: string;

  constructor(server: MailServer) {
    this.from = server.from;
    this.transport = import('nodemailer').then(({ default: nodemailer }) =>
      'url' in server
        ? nodemailer.createTransport(server.url)
        : nodemailer.createTransport({
            host: server.host,
            port: server.port,
            secure: server.secure,
            auth: server.user ? { user: server.user, pass: server.password ?? '' } : undefined,
            // A console call waits for this: fail within seconds, not minutes.
            connectionTimeout: 10_000,
            greetingTimeout: 10_000,
            socketTimeout: 20_000,
          }),
    );
  }

  /** Sends one message; rejects with the server's error text. */
  async send(message: MailMessage): Promise<void> {
    const transport = await this.transport;
    try {
      await transport.sendMail({ from: this.from, ...message });
    } finally {
      transport.close();
    }
  }
}
