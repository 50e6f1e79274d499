"use server";

import { z } from "zod";
import { afterResponse } from "../../after-response";
import { defineAction } from "../define-action";
import { DomainError } from "../../domain-error";
import { log } from "../../log";
import { acceptReport, actOnReportedToken, publicUrl, REPORT_THANKS, webAddress } from "../../keys/leak-reports";

// POST /report-a-key: anyone who found a Keyport key can hand it in. No
// session (it can only take a key away), but a request that carries a key in
// a credential header is refused, as everywhere outside the public API. The
// answer is the same, in the same time, whatever the key turns out to be: the
// work runs after the response is sent. The pasted value is never stored or
// logged; only its digest is looked up.

const reportSchema = z.object({
  key: z
    .string({ error: "Paste the key you found." })
    .trim()
    .min(1, "Paste the key you found.")
    .max(200, "That is longer than any Keyport key: paste only the key."),
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
    afterResponse("key_report", () => actOnReportedToken(input.key, { source: "public-report", url: input.url }));
    return REPORT_THANKS;
  },
});
