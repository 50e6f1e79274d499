"use client";

import { Menu, type MenuItem } from "@/components/ui/menu";
import { availableActions, type KeyActionKind } from "@/lib/keys/status";
import { useKeyDialogs, type KeyTarget } from "./key-dialogs";

const ITEMS: Record<KeyActionKind, { text: string; label: (label: string) => string; destructive: boolean }> = {
  rotate: { text: "Rotate…", label: (label) => `Rotate “${label}”`, destructive: false },
  leak: { text: "This key leaked…", label: (label) => `This key leaked: “${label}”`, destructive: true },
  revoke: { text: "Revoke…", label: (label) => `Revoke “${label}”`, destructive: true },
};

/** The actions a key offers in its status, as buttons (key page) or as a row's menu (list). */
export function useKeyActionItems(target: KeyTarget): (MenuItem & { kind: KeyActionKind })[] {
  const dialogs = useKeyDialogs();
  return availableActions(target.status, { decoy: target.decoy ?? false })
    .filter((kind) => target.manageable !== false || kind === "leak")
    .filter((kind) => kind !== "rotate" || target.replaceable !== false)
    .map((kind) => ({
      kind,
      text: ITEMS[kind].text,
      label: ITEMS[kind].label(target.label),
      destructive: ITEMS[kind].destructive,
      onSelect: (trigger) => dialogs.open({ kind, key: target }, trigger),
    }));
}

export function KeyMenu({ target }: { target: KeyTarget }) {
  const items = useKeyActionItems(target);
  if (items.length === 0) return null;
  return (
    <Menu
      triggerLabel={`Actions for “${target.label}”`}
      trigger={<span aria-hidden>⋯</span>}
      items={items}
      triggerId={`key-actions-${target.id}`}
    />
  );
}
