"use server";

import { revalidatePath } from "next/cache";
import { actorFor } from "../guard";
import { defineAction } from "../define-action";
import { decideKeyRequestSchema, keyRequestSchema, revealKeyRequestSchema } from "../../keys/key.schema";
import { decideKeyRequest, requestProductionKey, revealRequestedKey } from "../../keys/key-requests";
import { keyRequestPath } from "../team-paths";
import type { KeyActionData } from "./keys";

// Requests for production keys under a team's "developers with approval"
// policy (lib/keys/key-requests.ts), each through the one action wrapper. The
// wrapper refuses a team the person is not in; the domain checks roles, the
// policy and the request's state under the team's lock. Deciding and
// revealing need a fresh sign-in, whatever the page showed.

export interface KeyRequestData {
  requestId: string;
  /** Where the request can be followed. */
  href: string;
  message: string;
}

export const requestKeyAction = defineAction({
  access: "session",
  input: keyRequestSchema,
  team: (input) => input.team,
  failureEvent: "key.request_failed",
  async run({ input, session, member }): Promise<KeyRequestData> {
    const { id } = await requestProductionKey(await actorFor(session), member!.team.id, input);
    revalidatePath("/dashboard", "layout");
    return {
      requestId: id,
      href: keyRequestPath(member!.team.slug, id),
      message: `Asked the team's admins for “${input.label}”. You will get a mail when one decides.`,
    };
  },
});

export const decideKeyRequestAction = defineAction({
  access: "session",
  input: decideKeyRequestSchema,
  team: (input) => input.team,
  stepUp: true,
  failureEvent: "key.request_failed",
  async run({ input, session, member }): Promise<{ message: string }> {
    const { approved } = await decideKeyRequest(await actorFor(session), member!.team.id, input.requestId, input);
    revalidatePath("/dashboard", "layout");
    return {
      message: approved
        ? "Approved. The developer can now reveal the key, once; you will never see its secret."
        : "Denied. The developer was told why.",
    };
  },
});

export const revealKeyRequestAction = defineAction({
  access: "session",
  input: revealKeyRequestSchema,
  team: (input) => input.team,
  stepUp: true,
  failureEvent: "key.request_failed",
  async run({ input, session, member }): Promise<KeyActionData> {
    const { key, secret } = await revealRequestedKey(await actorFor(session), member!.team.id, input.requestId);
    // No revalidation here: the page would redraw without this form before it hands the secret to the team's
    // dialog. The form refreshes the page once the dialog holds it.
    return { keyId: key.id, label: key.label, secret, message: `Created “${key.label}”.` };
  },
});
