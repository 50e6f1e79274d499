import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { simpleParser } from "mailparser";

// The e2e server has no SMTP_URL, so it writes each message to a development
// outbox folder as an .eml file (serve.mjs points it into the throw-away data
// folder). The tests read their mail from there, as a person reads an inbox.

export const e2eOutbox = () => path.join(process.env.E2E_DATA_DIR!, "outbox");

export interface OutboxMail {
  subject: string;
  text: string;
}

async function messagesTo(dir: string, to: string): Promise<OutboxMail[]> {
  const files = (await readdir(dir).catch(() => [] as string[])).filter((file) => file.endsWith(".eml")).sort();
  const found: OutboxMail[] = [];
  for (const file of files) {
    const parsed = await simpleParser(await readFile(path.join(dir, file)));
    const recipients = [parsed.to ?? []].flat().flatMap((group) => group.value.map((a) => a.address?.toLowerCase()));
    if (recipients.includes(to.toLowerCase())) found.push({ subject: parsed.subject ?? "", text: parsed.text ?? "" });
  }
  return found;
}

/** Waits until `count` messages to `to` with this subject are in the outbox; returns them, oldest first. */
export async function waitForMail(dir: string, to: string, subject: string, count = 1): Promise<OutboxMail[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const matching = (await messagesTo(dir, to)).filter((mail) => mail.subject === subject);
    if (matching.length >= count) return matching;
    if (Date.now() > deadline) throw new Error(`no "${subject}" message to ${to} in ${dir}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every message to `to` in the outbox now, oldest first. */
export const mailTo = messagesTo;

/** The first link in a message to a path that starts with `pathPrefix`, as a URL. */
export function linkIn(mail: OutboxMail, pathPrefix: string): URL {
  const link = mail.text
    .split(/\s+/)
    .filter((word) => /^https?:\/\//.test(word))
    .map((word) => new URL(word))
    .find((url) => url.pathname.startsWith(pathPrefix));
  if (!link) throw new Error(`no ${pathPrefix} link in "${mail.subject}"`);
  return link;
}
