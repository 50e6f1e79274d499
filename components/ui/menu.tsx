"use client";

import { DropdownMenu } from "radix-ui";
import { useRef, type ReactNode } from "react";
import { cn } from "./cn";
import { popoverItemClasses, popoverPanelClasses } from "./popover-styles";

export interface MenuItem {
  /** What the item shows. */
  text: string;
  /** Its accessible name, when the visible text alone would not say which thing it acts on. */
  label: string;
  destructive?: boolean;
  onSelect: (trigger: HTMLButtonElement | null) => void;
}

/**
 * A menu button (Radix: arrow keys, typeahead, Escape). An item's action runs
 * after the menu has closed and without handing focus back to the trigger,
 * so a dialog it opens gets focus and can return it to the trigger itself.
 */
export function Menu({
  triggerLabel,
  trigger,
  items,
  triggerId,
}: {
  triggerLabel: string;
  trigger: ReactNode;
  items: MenuItem[];
  /** A stable id, so focus can find the trigger again after the list re-renders. */
  triggerId?: string;
}) {
  const triggerRef = useRef<HTMLButtonElement>(null);
  const chosen = useRef<MenuItem | null>(null);
  const safe = items.filter((item) => !item.destructive);
  const destructive = items.filter((item) => item.destructive);
  const render = (item: MenuItem) => (
    <DropdownMenu.Item
      key={item.text}
      aria-label={item.label}
      onSelect={() => {
        chosen.current = item;
      }}
      className={cn(popoverItemClasses, item.destructive && "text-red-700 dark:text-red-300")}
    >
      {item.text}
    </DropdownMenu.Item>
  );
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        ref={triggerRef}
        aria-label={triggerLabel}
        className="inline-flex min-h-10 min-w-10 items-center justify-center rounded-md text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
        id={triggerId}
      >
        {trigger}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          collisionPadding={8}
          className={cn(popoverPanelClasses, "min-w-48 p-1")}
          onCloseAutoFocus={(event) => {
            const item = chosen.current;
            chosen.current = null;
            if (!item) return;
            event.preventDefault();
            item.onSelect(triggerRef.current);
          }}
        >
          {safe.map(render)}
          {safe.length > 0 && destructive.length > 0 && (
            <DropdownMenu.Separator className="my-1 h-px bg-zinc-200 dark:bg-zinc-700" />
          )}
          {destructive.map(render)}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
