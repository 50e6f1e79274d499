"use client";

import { Button } from "@/components/ui/button";
import { useKeyDialogs, type KeyTarget } from "./key-dialogs";
import { useKeyActionItems } from "./key-menu";

export function CreateKeyButton() {
  const dialogs = useKeyDialogs();
  return (
    <Button id="create-key" onClick={(event) => dialogs.open({ kind: "create" }, event.currentTarget)}>
      Create key
    </Button>
  );
}

/** The key page's actions, as buttons: the same ones, and the same dialogs, as the list's menu. */
export function KeyActionButtons({ target }: { target: KeyTarget }) {
  const items = useKeyActionItems(target);
  return (
    <div className="flex flex-wrap gap-2">
      {items.map((item) => (
        <Button
          key={item.kind}
          id={`key-${item.kind}-${target.id}`}
          variant={item.destructive ? "danger" : "secondary"}
          aria-label={item.label}
          onClick={(event) => item.onSelect(event.currentTarget)}
        >
          {item.text.replace("…", "")}
        </Button>
      ))}
    </div>
  );
}
