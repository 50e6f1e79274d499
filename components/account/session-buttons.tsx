"use client";

import { useActionState } from "react";
import { endOtherSessionsAction, endSessionAction, type SessionActionState } from "@/app/(dashboard)/account/actions";
import { Button } from "@/components/ui/button";

function Status({ state }: { state: SessionActionState }) {
  const text = state.ok ? state.message : state.error;
  return (
    <span role="status" className="text-sm">
      {text}
    </span>
  );
}

export function EndSessionButton({ sessionId }: { sessionId: string }) {
  const [state, action, pending] = useActionState(endSessionAction, { ok: false });
  return (
    <form action={action} className="flex items-center gap-2">
      <input type="hidden" name="sessionId" value={sessionId} />
      <Button type="submit" variant="secondary" disabled={pending}>
        End session
      </Button>
      <Status state={state} />
    </form>
  );
}

export function EndOtherSessionsButton() {
  const [state, action, pending] = useActionState(endOtherSessionsAction, { ok: false });
  return (
    <form action={action} className="flex items-center gap-2">
      <Button type="submit" variant="danger" disabled={pending}>
        End all other sessions
      </Button>
      <Status state={state} />
    </form>
  );
}
