"use client";

import { ActionStatus } from "@/components/forms/action-status";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { endOtherSessionsAction, endSessionAction } from "@/lib/web/actions/sessions";

export function EndSessionButton({ sessionId, browser }: { sessionId: string; browser: string }) {
  const { state, pending, form } = useActionForm(endSessionAction);
  return (
    <form {...form} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="sessionId" value={sessionId} />
      <Button type="submit" variant="secondary" disabled={pending} aria-label={`End session: ${browser}`}>
        End session
      </Button>
      <ActionStatus state={state} />
    </form>
  );
}

export function EndOtherSessionsButton() {
  const { state, pending, form } = useActionForm(endOtherSessionsAction);
  return (
    <form {...form} className="flex flex-wrap items-center gap-2">
      <Button type="submit" variant="danger" disabled={pending}>
        End all other sessions
      </Button>
      <ActionStatus state={state} />
    </form>
  );
}
