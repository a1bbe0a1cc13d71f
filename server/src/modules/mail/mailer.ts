import nodemailer, { type Transporter } from 'nodemailer';

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
  private readonly transport: Transporter;
  private readonly from: string;

  constructor(server: MailServer) {
    this.from = server.from;
    this.transport =
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
          });
  }

  /** Sends one message; rejects with the server's error text. */
  async send(message: MailMessage): Promise<void> {
    try {
      await this.transport.sendMail({ from: this.from, ...message });
    } finally {
      this.transport.close();
    }
  }
}
