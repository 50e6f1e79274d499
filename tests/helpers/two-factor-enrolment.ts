import { expect } from "vitest";
import { twoFactorView } from "@/lib/auth/two-factor/enrolment";
import { codeFor } from "@/lib/auth/two-factor/totp";
import { confirmTwoFactorAction, startTwoFactorAction } from "@/lib/web/actions/two-factor";
import { formOf } from "./next-request";

const STEP = 30_000;

/**
 * Turns two-factor on through the account page's actions, as the signed-in browser of `request` (its session fresh):
 * the secret the page showed and the recovery codes shown once. A test file using it mocks Next's request APIs
 * (tests/helpers/next-request.ts).
 */
export async function enrolTwoFactor(userId: string, email: string): Promise<{ secret: string; codes: string[] }> {
  expect(await startTwoFactorAction(null, formOf({}))).toMatchObject({ ok: true });
  const { pending } = await twoFactorView(userId, email);
  // A code of the previous step: the one after it stays free for the test. Made well inside a step, so the step
  // cannot turn before it is checked and leave it two steps old (one step of drift is accepted).
  const left = STEP - (Date.now() % STEP);
  if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
  const confirmed = await confirmTwoFactorAction(null, formOf({ code: codeFor(pending!.secret, Date.now() - STEP) }));
  expect(confirmed).toMatchObject({ ok: true });
  return { secret: pending!.secret, codes: confirmed.ok ? confirmed.data : [] };
}
