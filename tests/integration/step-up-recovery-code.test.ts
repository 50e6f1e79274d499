// Issue 30: with two-factor on, the fresh sign-in ("confirm it's you") asks
// for a code from the app or a recovery code, never the password alone. A
// recovery code proves the session for a production key's revoke, and is
// spent doing so: the same code a second time is a wrong answer.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createAccount } from "@/lib/auth/accounts";
import { createSession } from "@/lib/auth/session-store";
import { STEP_UP_CODE_NEEDED, STEP_UP_MESSAGE, STEP_UP_WINDOW_MS } from "@/lib/auth/step-up";
import { twoFactorView } from "@/lib/auth/two-factor/enrolment";
import { db } from "@/lib/db";
import { createKeyAction, revokeKeyAction } from "@/lib/web/actions/keys";
import { stepUpAction } from "@/lib/web/actions/step-up";
import { formOf, request } from "../helpers/next-request";
import { enrolTwoFactor } from "../helpers/two-factor-enrolment";

vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);
vi.mock("next/navigation", async () => (await import("../helpers/next-request")).nextNavigation);
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const PASSWORD = "a long enough password";
const stepUpRefusal = { ok: false, error: STEP_UP_MESSAGE, fieldErrors: { stepUp: [STEP_UP_MESSAGE] } };

beforeEach(() => {
  request.cookies.clear();
  request.headers = new Headers({ "user-agent": "vitest", "x-keyport-peer-ip": "198.18.30.4" });
});

/** The session last proved itself over 10 minutes ago. */
const makeStale = (sessionId: string) =>
  db.session.update({
    where: { id: sessionId },
    data: { verifiedAt: new Date(Date.now() - STEP_UP_WINDOW_MS - 60_000) },
  });

describe("the fresh sign-in with two-factor on", () => {
  it("takes a recovery code for a production key's revoke, once; the password alone never", async () => {
    const email = `step-up-recovery-${Date.now()}@example.com`;
    const created = await createAccount(email, PASSWORD);
    if (!created.ok) throw new Error(created.error);
    const userId = created.userId;
    const session = await createSession(userId, "198.18.30.4", "vitest");
    request.cookies.set("keyport.session", session.sessionToken);
    const newProductionKey = async (label: string) => {
      const made = await createKeyAction(null, formOf({ label, environment: "prod", expiry: "never" }));
      if (!made.ok) throw new Error(made.error);
      return made.data.keyId;
    };
    const first = await newProductionKey("billing");
    const second = await newProductionKey("payments");
    const { codes } = await enrolTwoFactor(userId, email);
    expect(codes).toHaveLength(10);
    const revokedAt = async (keyId: string) =>
      (await db.apiKey.findFirstOrThrow({ where: { userId, publicId: keyId } })).revokedAt;

    await makeStale(session.id);
    expect(await revokeKeyAction(null, formOf({ keyId: first }))).toMatchObject(stepUpRefusal);
    // The password alone: refused (and not counted as a wrong answer); the key still needs a fresh sign-in.
    expect(await stepUpAction(null, formOf({ password: PASSWORD }))).toMatchObject({
      ok: false,
      error: STEP_UP_CODE_NEEDED,
      values: {},
    });
    expect(await revokeKeyAction(null, formOf({ keyId: first }))).toMatchObject(stepUpRefusal);
    expect(await revokedAt(first)).toBeNull();

    // A recovery code, as shown: confirmed, and the revoke goes through.
    expect(await stepUpAction(null, formOf({ code: codes[0]! }))).toMatchObject({ ok: true });
    expect(await revokeKeyAction(null, formOf({ keyId: first }))).toMatchObject({ ok: true });
    expect(await revokedAt(first)).not.toBeNull();
    expect((await twoFactorView(userId, email)).recoveryCodesLeft).toBe(9);

    // Spent: the same code, ten minutes on, is a wrong answer (counted), and the second key stays.
    await makeStale(session.id);
    expect(await stepUpAction(null, formOf({ code: codes[0]! }))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^That code is not right, or was used already\./),
      values: {},
    });
    expect(await db.session.findUniqueOrThrow({ where: { id: session.id } })).toMatchObject({ stepUpFailures: 1 });
    expect(await revokeKeyAction(null, formOf({ keyId: second }))).toMatchObject(stepUpRefusal);
    expect(await revokedAt(second)).toBeNull();
    // The control: another of the codes still works, written without its dashes.
    expect(await stepUpAction(null, formOf({ code: codes[1]!.replaceAll("-", "") }))).toMatchObject({ ok: true });
    expect(await revokeKeyAction(null, formOf({ keyId: second }))).toMatchObject({ ok: true });
    expect(await revokedAt(second)).not.toBeNull();
  });
});
