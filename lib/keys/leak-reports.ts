import "server-only";
import { createHash } from "node:crypto";
import { countedClient } from "../auth/client-ip";
import { db, dbProvider } from "../db";
import { log } from "../log";
import { keyDigest } from "./digest";
import { recordDecoyUse } from "./decoy";
import { parseApiKey } from "./format";
import { apiKeysIn, holdsApiKey } from "./key-in-text";
import { redactKeyShaped } from "./key-shaped";
import { revokeLeaked, type LeakSource } from "./lifecycle";

// A key reported found by someone other than its owner: GitHub's secret
// scanning (POST /webhooks/secret-scanning) or the public report form. The
// report never issues a replacement (the owner decides) and is acted on as
// the report's source, a system actor on the owner's activity log.

/** How much the public report form reads: a pasted file or log excerpt, and the keys in it. */
export const REPORT_MAX_CHARACTERS = 20_000;
export const REPORT_MAX_KEYS = 50;
export const NO_KEY_FOUND =
  "We found no Keyport key in what you pasted. A key starts with sk_dev_ or sk_prod_ and has 38 letters and digits after it.";

/**
 * The public report form's answer. It counts the well-formed keys read in the
 * text (which anyone can check offline, by the checksum), never how many were
 * live, decoys or already revoked: that would make the form an oracle.
 */
export function reportThanks(keys: number): string {
  return keys === 1
    ? "Thank you. We read 1 Keyport key in what you pasted. If it was live, it no longer works, and its owner has been told where it was found."
    : `Thank you. We read ${keys} Keyport keys in what you pasted. Any of them that was live no longer works, and its owner has been told where it was found.`;
}
export const REPORTS_PER_IP_PER_HOUR = 10;
const REPORT_WINDOW_MS = 60 * 60 * 1000;

export type ReportAcceptance = { ok: true } | { ok: false; retryAt: Date };

/**
 * The public report form's limit: REPORTS_PER_IP_PER_HOUR accepted reports an
 * hour per client (countedClient: an IPv4 address or an IPv6 /64, so one
 * subscriber cannot get ten more from every address of its /64). Counted and
 * recorded in one transaction that one client's reports take in turns: an attack
 * review's burst of 200 from one address on PostgreSQL had all 200 accepted
 * when the count and the record were apart. A refused report is not recorded,
 * so retrying while refused does not push the time back.
 */
export async function acceptReport(ip: string, now = new Date()): Promise<ReportAcceptance> {
  const client = countedClient(ip);
  return db.$transaction(async (tx) => {
    // SQLite's transactions take turns in the one process that writes; PostgreSQL's take this lock per client.
    if (dbProvider() === "postgres")
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`key_report ${client}`}, 0))`;
    const recent = await tx.authAttempt.findMany({
      where: { kind: "key_report", client, createdAt: { gt: new Date(now.getTime() - REPORT_WINDOW_MS) } },
      orderBy: { createdAt: "asc" },
      select: { createdAt: true },
      take: REPORTS_PER_IP_PER_HOUR,
    });
    if (recent.length >= REPORTS_PER_IP_PER_HOUR) {
      return { ok: false, retryAt: new Date(recent[0]!.createdAt.getTime() + REPORT_WINDOW_MS) };
    }
    await tx.authAttempt.create({ data: { kind: "key_report", email: "", ip, client, success: true, createdAt: now } });
    return { ok: true };
  });
}

/**
 * Where a report says a key was found, as it is kept and mailed: an http(s)
 * URL, re-serialised by the URL parser (which drops tabs and line breaks and
 * percent-encodes spaces, so a reporter cannot write lines into the owner's
 * email), with anything shaped like one of our keys redacted (the page is
 * what the owner needs; no key is ever stored), at most 2,000 characters;
 * anything else is not kept. Redacted after parsing: the parser drops a tab
 * from inside a key, which would leave the key whole.
 */
export function webAddress(url: string | null | undefined): string | null {
  const href = parsedHref(url);
  if (href === null) return null;
  const redacted = redactKeyShaped(href);
  return redacted.length <= 2_000 ? redacted : null;
}

/** The URL as the parser writes it back, if it is an http(s) one; not yet redacted. */
function parsedHref(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : null;
  } catch {
    return null;
  }
}

/**
 * The address as kept (webAddress), or null when a real key is still in it
 * under an encoding (percent-escaped, base64) or split (`sk_dev_AB%0aCD…`):
 * that cannot be cut out without guessing, so the address is not kept (the
 * report form says so instead). Read before redacting as well as after: the
 * redaction cuts a split key's first piece and leaves the rest, which alone
 * no longer reads as a key (an attack review kept 19 of a key's 32 random
 * characters that way). A key written out whole is the one thing redaction
 * handles, so only those are taken out before the first reading.
 */
export function publicUrl(url: string | null | undefined): string | null {
  const raw = parsedHref(url);
  const href = webAddress(url);
  if (raw === null || href === null) return null;
  const withoutWholeKeys = apiKeysIn(raw).reduce((text, key) => text.replaceAll(key, " "), raw);
  return holdsApiKey(withoutWholeKeys) || holdsApiKey(href) ? null : href;
}

export type ReportLabel = "true_positive" | "false_positive";

/** The SHA-256 of a reported token in hex: what a report's answer and our logs name, never the token. */
export const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Acts on one reported token and labels it as GitHub's feedback format does:
 * a token that fails the format or checksum is false_positive with no lookup;
 * one that matches no key is false_positive; a live key is revoked at once and
 * a revoked or expired one left as it is, both true_positive; a decoy raises
 * its alert (and stays as it is), true_positive too.
 */
export async function actOnReportedToken(
  token: string,
  report: { source: Exclude<LeakSource, "dashboard">; url: string | null },
): Promise<ReportLabel> {
  if (!parseApiKey(token)) return "false_positive";
  const key = await db.apiKey.findUnique({
    where: { digest: keyDigest(token) },
    select: { id: true, userId: true, publicId: true, decoy: true },
  });
  if (!key) {
    log.info("key.report.unknown", { source: report.source, token_hash: tokenHash(token) });
    return "false_positive";
  }
  if (key.decoy) {
    // Found where it was placed: that place leaked. The decoy stays armed.
    const route = report.source === "secret-scanning" ? "GitHub secret-scanning report" : "public report form";
    await recordDecoyUse(key, { ip: null, userAgent: report.source, route, url: report.url });
    return "true_positive";
  }
  const actor = { userId: key.userId, ip: null, userAgent: report.source, kind: "report" as const };
  const outcome = await revokeLeaked(actor, key.publicId, { ...report, replace: false });
  log.warn("key.report.matched", { source: report.source, key_id: key.publicId, outcome: outcome.status });
  return "true_positive";
}
