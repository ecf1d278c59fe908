import type { AddressInfo } from "node:net";
import nodemailer, { type Transporter } from "nodemailer";
import { SMTPServer } from "smtp-server";

/** A message as the receiving SMTP server saw it. */
export type ReceivedMail = {
  /** SMTP envelope (MAIL FROM / RCPT TO). */
  envelopeFrom: string | null;
  envelopeTo: string[];
  /** Unfolded headers, names lower-cased. */
  headers: Record<string, string>;
  from: string;
  to: string;
  subject: string;
  /** The decoded text body. */
  text: string;
  raw: string;
};

/** Decode RFC 2047 encoded words (=?UTF-8?B?...?= / =?UTF-8?Q?...?=) in a header value. */
function decodeEncodedWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?") // whitespace between adjacent encoded words is not part of the text
    .replace(/=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g, (_all, _charset: string, encoding: string, data: string) => {
      if (encoding.toUpperCase() === "B") return Buffer.from(data, "base64").toString("utf8");
      const bytes = data.replace(/_/g, " ").replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => `%${hex}`);
      try {
        return decodeURIComponent(bytes);
      } catch {
        return bytes;
      }
    });
}

function decodeQuotedPrintable(body: string): string {
  const softBreaksRemoved = body.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < softBreaksRemoved.length; i++) {
    const char = softBreaksRemoved[i] ?? "";
    const hex = softBreaksRemoved.slice(i + 1, i + 3);
    if (char === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      for (const byte of Buffer.from(char, "utf8")) bytes.push(byte);
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** Split a raw RFC 5322 message into headers and a decoded single-part text body. */
export function parseRawMail(raw: string): Pick<ReceivedMail, "headers" | "from" | "to" | "subject" | "text"> {
  const separator = raw.search(/\r?\n\r?\n/);
  const head = separator === -1 ? raw : raw.slice(0, separator);
  const body = separator === -1 ? "" : raw.slice(separator).replace(/^\r?\n\r?\n/, "");
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    headers[line.slice(0, colon).trim().toLowerCase()] = decodeEncodedWords(line.slice(colon + 1).trim());
  }
  const encoding = (headers["content-transfer-encoding"] ?? "7bit").toLowerCase();
  let text: string;
  if (encoding === "base64") text = Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  else if (encoding === "quoted-printable") text = decodeQuotedPrintable(body);
  else text = body;
  text = text.replace(/\r\n/g, "\n").replace(/\n$/, "");
  return { headers, from: headers.from ?? "", to: headers.to ?? "", subject: headers.subject ?? "", text };
}

/**
 * A real SMTP server (smtp-server) on 127.0.0.1 that keeps every message it
 * accepts. `stop()` and `start()` simulate an outage; the port stays the same.
 */
/** A capturing SMTP server on 127.0.0.1 (`port` 0: any free port); `onMail` sees each message as it arrives. */
export async function startSmtpServer(options: { port?: number; onMail?: (mail: ReceivedMail) => void } = {}) {
  const received: ReceivedMail[] = [];
  let server: SMTPServer | null = null;
  let port = options.port ?? 0;

  function create(): SMTPServer {
    return new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      closeTimeout: 1000,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("error", callback);
        stream.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          const mailFrom = session.envelope.mailFrom;
          const mail: ReceivedMail = {
            envelopeFrom: mailFrom ? mailFrom.address : null,
            envelopeTo: session.envelope.rcptTo.map((r) => r.address),
            raw,
            ...parseRawMail(raw),
          };
          received.push(mail);
          options.onMail?.(mail);
          // Recorded before the client hears "250 OK": once sendMail resolves, the mail is in `received`.
          callback();
        });
      },
    });
  }

  async function start(): Promise<void> {
    if (server) return;
    const next = create();
    await new Promise<void>((resolve, reject) => {
      next.on("error", reject);
      next.listen(port, "127.0.0.1", () => resolve());
    });
    port = (next.server.address() as AddressInfo).port;
    server = next;
  }

  async function stop(): Promise<void> {
    const current = server;
    server = null;
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  }

  await start();

  return {
    received,
    get port() {
      return port;
    },
    /** A nodemailer transport pointed at this server (plain SMTP, no TLS). */
    transport(): Transporter {
      return nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true });
    },
    /** Messages whose envelope includes this recipient. */
    to(address: string): ReceivedMail[] {
      return received.filter((m) => m.envelopeTo.includes(address));
    },
    clear() {
      received.length = 0;
    },
    start,
    stop,
  };
}

export type SmtpTestServer = Awaited<ReturnType<typeof startSmtpServer>>;
