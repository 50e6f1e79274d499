"use client";

import { useTeam } from "@/components/teams/team-context";
import { Button } from "@/components/ui/button";
import { can } from "@/lib/teams/roles";
import { useKeyDialogs, type KeyTarget } from "./key-dialogs";
import { useKeyActionItems } from "./key-menu";

/**
 * "Create key", or, for a role that may create no key (lib/teams/roles.ts), the button disabled with the reason
 * beside it. The server refuses the action for that role whatever the page shows.
 */
export function CreateKeyButton() {
  const dialogs = useKeyDialogs();
  const { role } = useTeam();
  if (!can(role, "keys.create_dev") && !can(role, "keys.create_prod")) {
    return (
      <div className="flex flex-wrap items-center gap-2">
        <Button id="create-key" disabled aria-describedby="create-key-why">
          Create key
        </Button>
        <span id="create-key-why" className="text-sm text-zinc-700 dark:text-zinc-300">
          Your role in this team ({role}) cannot create keys.
        </span>
      </div>
    );
  }
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
