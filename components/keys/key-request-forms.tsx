"use client";

import { useRouter } from "next/navigation";
import { FormAlert } from "@/components/forms/form-alert";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";
import { useToast } from "@/components/ui/toast";
import { KEY_REQUEST_REASON_MAX } from "@/lib/teams/policies";
import { decideKeyRequestAction, revealKeyRequestAction } from "@/lib/web/actions/key-requests";
import { useKeyDialogs } from "./key-dialogs";

// The two things done to a request for a production key on its page: an
// admin approves or denies it, and the requester reveals the approved key.
// Both ask for a fresh sign-in first when the session has not proved itself
// lately (the server refuses without one, whatever this page did).

/** Approve or deny, with a comment (a denial must say why). */
export function DecideRequestForm({ team, requestId }: { team: string; requestId: string }) {
  const router = useRouter();
  const toast = useToast();
  const { pending, form, error, fieldError, value } = useActionForm(decideKeyRequestAction, {
    onSuccess: (data) => {
      toast(data.message);
      router.refresh();
    },
  });
  return (
    <form {...form} className="mt-4 flex flex-col gap-3" noValidate>
      <input type="hidden" name="team" value={team} />
      <input type="hidden" name="requestId" value={requestId} />
      <FormAlert message={error} />
      <Textarea
        label="Comment"
        name="comment"
        rows={3}
        maxLength={KEY_REQUEST_REASON_MAX}
        defaultValue={value("comment")}
        hint="The developer reads this. Needed to deny; optional to approve."
        error={fieldError("comment")}
        className="font-sans"
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" name="decision" value="approve" disabled={pending}>
          Approve
        </Button>
        <Button type="submit" name="decision" value="deny" variant="danger" disabled={pending}>
          Deny
        </Button>
      </div>
    </form>
  );
}

/** The requester's one reveal: the secret is made by this action and shown in the team's one-time dialog. */
export function RevealRequestForm({ team, requestId }: { team: string; requestId: string }) {
  const dialogs = useKeyDialogs();
  const router = useRouter();
  const { pending, form, error } = useActionForm(revealKeyRequestAction, {
    // The dialog sits in the team's layout, so the page can then redraw under it (the request is now revealed).
    onSuccess: (data) => {
      dialogs.showSecret(data, null);
      router.refresh();
    },
  });
  return (
    <form {...form} className="mt-4 flex flex-col gap-3" noValidate>
      <input type="hidden" name="team" value={team} />
      <input type="hidden" name="requestId" value={requestId} />
      <FormAlert message={error} />
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? "Making the key…" : "Reveal key"}
        </Button>
      </div>
    </form>
  );
}
