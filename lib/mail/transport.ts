import "server-only";
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { getEnv } from "../env";
import { log } from "../log";
import { runtime } from "../runtime/runtime";

// Where a message goes: the SMTP server in SMTP_URL, or, with none (the
// embedded default), a development outbox: each message is written to
// MAIL_OUTBOX_DIR (data/outbox/) as an .eml file, and under `npm run dev` its
// link is printed to the server log too, so the README's first command needs
// nothing else. Production (an https
// PUBLIC_BASE_URL) refuses to start without SMTP_URL (lib/env-schema.ts).

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** The one link the message exists to deliver, if any: printed to the log by `npm run dev` only. */
  link?: string | undefined;
}

/** The SMTP transport for a URL, made once per URL: the runtime holds one (lib/runtime/create-runtime.ts). */
export function smtpTransports(): (url: string) => Transporter {
  let held: { url: string; transporter: Transporter } | undefined;
  return (url) => {
    if (held?.url !== url) held = { url, transporter: nodemailer.createTransport(url) };
    return held.transporter;
  };
}

export async function deliver(mail: OutgoingMail): Promise<void> {
  const env = getEnv();
  const message = { from: env.MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text };
  if (env.SMTP_URL) {
    await runtime().smtpTransport(env.SMTP_URL).sendMail(message);
    return;
  }
  const rendered = await nodemailer.createTransport({ streamTransport: true, buffer: true }).sendMail(message);
  mkdirSync(env.MAIL_OUTBOX_DIR, { recursive: true });
  // A short name: the time, for sorting, and 8 random hex digits, for uniqueness. (turbopackIgnore: the build would
  // otherwise trace every file already in the outbox into each server route: mail that `npm run dev` or a test wrote
  // there, as lib/files/store.ts says of the uploads' folder.)
  const file = path.join(
    /* turbopackIgnore: true */ env.MAIL_OUTBOX_DIR,
    `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.eml`,
  );
  writeFileSync(file, rendered.message as Buffer, { mode: 0o600 });
  // The link is the point of the message and there is no inbox to find it in,
  // so `npm run dev` prints it. A production build never does, even with the
  // outbox (an http PUBLIC_BASE_URL on a test machine): a reset link holds a
  // bearer token, and production logs are shipped elsewhere.
  const printLink = mail.link !== undefined && process.env.NODE_ENV === "development";
  log.info("mail.written_to_outbox", {
    file,
    to: mail.to,
    subject: mail.subject,
    ...(printLink ? { link: mail.link } : {}),
  });
}

/** Whether a failed send never reached the server (so trying again cannot send the message twice). */
export function neverReachedServer(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && ["ECONNECTION", "ETIMEDOUT", "ESOCKET", "EDNS", "ECONNREFUSED"].includes(code);
}
