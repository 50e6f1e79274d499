"use server";

import { headers } from "next/headers";
import { z } from "zod";
import { failure, invalid, isForm, NOT_A_FORM, ok, type ActionResult, type ActionState } from "../action-result";
import { afterResponse } from "../after-response";
import { carriesApiKey } from "../auth/api-key-headers";
import { clientIp } from "../auth/client-ip";
import { API_KEY_REFUSED_MESSAGE } from "../auth/guard";
import { db } from "../db";
import { getEnv } from "../env";
import { log } from "../log";
import { actOnReportedToken, publicUrl, REPORT_THANKS, REPORTS_PER_IP_PER_HOUR } from "./leak-reports";

// POST /report-a-key: anyone who found a Keyport key can hand it in. No
// session (it can only take a key away), but a request that carries a key in
// a credential header is refused, as everywhere outside the public API. The
// answer is the same, in the same time, whatever the key turns out to be: the
// work runs after the response is sent. The pasted value is never stored or
// logged; only its digest is looked up.

const WINDOW_MS = 60 * 60 * 1000;

const reportSchema = z.object({
  key: z
    .string({ error: "Paste the key you found." })
    .trim()
    .min(1, "Paste the key you found.")
    .max(200, "That is longer than any Keyport key: paste only the key."),
  url: z
    .string()
    .trim()
    .max(2_000, "Use at most 2,000 characters.")
    .refine((value) => value === "" || publicUrl(value) !== null, "Give a web address (https://…), or leave it empty.")
    .transform((value) => publicUrl(value)),
});

export async function reportKeyAction(
  _previous: ActionState<string>,
  formData: FormData,
): Promise<ActionResult<string>> {
  const requestHeaders = await headers();
  if (carriesApiKey(requestHeaders)) return failure(API_KEY_REFUSED_MESSAGE, formData, { omit: ["key"] });
  if (!isForm(formData)) return failure(NOT_A_FORM);
  const parsed = reportSchema.safeParse({ key: formData.get("key") ?? "", url: formData.get("url") ?? "" });
  if (!parsed.success) return invalid(parsed.error, formData, ["key"]);
  const ip = clientIp(requestHeaders, getEnv().TRUST_PROXY);
  const now = new Date();
  // Only accepted reports count, so retrying while refused does not push the
  // time back (a burst of concurrent reports may slip a few past the limit).
  const recent = await db.authAttempt.findMany({
    where: { kind: "key_report", ip, createdAt: { gt: new Date(now.getTime() - WINDOW_MS) } },
    orderBy: { createdAt: "asc" },
    select: { createdAt: true },
  });
  if (recent.length >= REPORTS_PER_IP_PER_HOUR) {
    const at = new Date(recent[0]!.createdAt.getTime() + WINDOW_MS).toISOString().slice(11, 16);
    log.warn("key.report.ip_limited", { ip });
    return failure(`Too many reports from your network. Try again at ${at} UTC.`, formData, { omit: ["key"] });
  }
  await db.authAttempt.create({ data: { kind: "key_report", email: "", ip, success: true, createdAt: now } });
  const { key, url } = parsed.data;
  afterResponse("key_report", () => actOnReportedToken(key, { source: "public-report", url }));
  return ok(REPORT_THANKS);
}
