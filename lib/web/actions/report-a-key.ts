"use server";

import { z } from "zod";
import { afterResponse } from "../../after-response";
import { defineAction } from "../define-action";
import { DomainError } from "../../domain-error";
import { log } from "../../log";
import { apiKeysIn } from "../../keys/key-in-text";
import {
  acceptReport,
  actOnReportedToken,
  NO_KEY_FOUND,
  publicUrl,
  REPORT_MAX_CHARACTERS,
  REPORT_MAX_KEYS,
  reportThanks,
  tokenHash,
  webAddress,
} from "../../keys/leak-reports";

// POST /report-a-key: anyone who found a Keyport key can hand it in. No
// session (it can only take a key away), but a request that carries a key in
// a credential header is refused, as everywhere outside the public API. The
// answer is the same, in the same time, whatever the key turns out to be: the
// work runs after the response is sent. The answer counts the well-formed keys read in what was pasted (the
// checksum tells, with no lookup), never which were live. The pasted value is never stored or
// logged; only its digest is looked up.

const reportSchema = z.object({
  // What was pasted: the key alone, or the line, file or log it was found in. Read for every key written out in it.
  key: z
    .string({ error: "Paste the key you found." })
    .trim()
    .min(1, "Paste the key you found.")
    .max(
      REPORT_MAX_CHARACTERS,
      `Paste at most ${REPORT_MAX_CHARACTERS.toLocaleString("en")} characters: the part that holds the keys.`,
    )
    .transform((text, context) => {
      const keys = apiKeysIn(text);
      if (keys.length === 0) context.addIssue({ code: "custom", message: NO_KEY_FOUND });
      if (keys.length > REPORT_MAX_KEYS) {
        context.addIssue({
          code: "custom",
          message: `That holds ${keys.length} keys: report at most ${REPORT_MAX_KEYS} at a time.`,
        });
      }
      return keys;
    }),
  // Optional: a form without the field is a report without a place.
  url: z.preprocess(
    (value) => value ?? "",
    z
      .string()
      .trim()
      .max(2_000, "Use at most 2,000 characters.")
      .refine((value) => value === "" || webAddress(value) !== null, {
        message: "Give a web address (https://…), or leave it empty.",
        abort: true,
      })
      // A key in plain text is redacted (publicUrl); one hidden by an encoding is refused, never stored.
      .refine(
        (value) => value === "" || publicUrl(value) !== null,
        "That address holds an API key in an encoded form: remove the key from it, or leave it empty.",
      )
      .transform((value) => publicUrl(value)),
  ),
});

/** Waits before each retry of a reported key's revocation: past a held lock, or a database restarting. */
const RETRY_DELAYS_MS = [1_000, 5_000, 20_000];

async function reportWithRetries(key: string, url: string | null): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await actOnReportedToken(key, { source: "public-report", url });
      return;
    } catch (error) {
      const delay = RETRY_DELAYS_MS[attempt];
      // The token's digest names it, never the token (lib/keys/leak-reports.ts tokenHash).
      const fields = { token_hash: tokenHash(key), attempt: attempt + 1, error: (error as Error).name };
      if (delay === undefined) return log.error("key.report.failed", fields);
      log.warn("key.report.retrying", fields);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

export const reportKeyAction = defineAction({
  access: "public",
  input: reportSchema,
  // The pasted value is never sent back, stored or logged.
  secrets: ["key"],
  async run({ input, ip }) {
    // Only accepted reports count (per client: an IPv4 address or an IPv6 /64), so retrying while refused
    // does not push the time back (a burst of concurrent reports may slip a few past the limit).
    const accepted = await acceptReport(ip);
    if (!accepted.ok) {
      const at = accepted.retryAt.toISOString().slice(11, 16);
      log.warn("key.report.ip_limited", { ip });
      throw new DomainError("rate_limited", `Too many reports from your network. Try again at ${at} UTC.`);
    }
    const keys = input.key;
    afterResponse("key_report", async () => {
      // One after another, each as a single report is (a burst of 50 lookups would crowd the pool for nothing), and
      // each on its own: one that fails (a lock held past the transaction's wait) is tried again, and never keeps
      // the keys after it live (an attack review: 20 of 50 stayed live behind a held SQLite write lock).
      for (const key of keys) await reportWithRetries(key, input.url);
    });
    return reportThanks(keys.length);
  },
});
