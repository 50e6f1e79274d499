"use client";

import { useKeyDialogs, type KeyTarget } from "@/components/keys/key-dialogs";
import { Button } from "@/components/ui/button";

/** "Retire the old key now": the same revocation, and the same dialog, as Revoke. */
export function RetireOldKeyButton({ target }: { target: KeyTarget }) {
  const dialogs = useKeyDialogs();
  return (
    <Button
      variant="danger"
      id={`retire-${target.id}`}
      onClick={(event) => dialogs.open({ kind: "revoke", key: target }, event.currentTarget)}
    >
      Retire the old key now
    </Button>
  );
}
