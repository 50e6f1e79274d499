import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll } from "vitest";

// A real SMTP server for tests (nodemailer's smtp-server), on a free port,
// keeping every message it accepted, parsed with mailparser. Point the app at
// it with SMTP_URL=smtp://127.0.0.1:<port>.

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  raw: ParsedMail;
}

export interface TestSmtpServer {
  url: string;
  messages: ReceivedMail[];
  /** Messages to one address, oldest first. */
  to(address: string): ReceivedMail[];
  /** Waits until a message matches (or fails after the timeout). */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const to = [parsed.to ?? []]
            .flat()
            .flatMap((group) => group.value.map((address) => address.address?.toLowerCase() ?? ""));
          messages.push({ to, subject: parsed.subject ?? "", text: parsed.text ?? "", raw: parsed });
          for (const wake of waiters) wake();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to: (address) => messages.filter((mail) => mail.to.includes(address.toLowerCase())),
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(match);
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching mail within ${timeoutMs} ms (received ${messages.length})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a message's text that starts with the given origin. */
export function linkIn(mail: ReceivedMail, origin: string): string {
  const link = mail.text.split(/\s+/).find((word) => word.startsWith(origin));
  if (!link) throw new Error(`no ${origin} link in "${mail.subject}"`);
  return link;
}

/**
 * A server for the whole test file: started in beforeAll with SMTP_URL
 * pointing at it (the file mocks lib/env so the mail job reads it again),
 * and stopped in afterAll. A test may point SMTP_URL elsewhere and back.
 */
export function smtpServerForFile(): TestSmtpServer {
  let server: TestSmtpServer | undefined;
  beforeAll(async () => {
    server = await startSmtpServer();
    process.env.SMTP_URL = server.url;
  });
  afterAll(async () => {
    delete process.env.SMTP_URL;
    await server?.close();
  });
  const current = () => {
    if (!server) throw new Error("the test SMTP server starts in beforeAll");
    return server;
  };
  return {
    get url() {
      return current().url;
    },
    get messages() {
      return current().messages;
    },
    to: (address) => current().to(address),
    waitFor: (match, timeoutMs) => current().waitFor(match, timeoutMs),
    close: () => current().close(),
  };
}
