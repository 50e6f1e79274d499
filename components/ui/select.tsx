"use client";

import { Select as SelectPrimitive } from "radix-ui";
import { useId } from "react";
import { cn } from "./cn";
import { popoverItemClasses, popoverPanelClasses } from "./popover-styles";

interface SelectProps {
  label: string;
  name: string;
  options: readonly (readonly [value: string, text: string])[];
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
  className?: string;
}

/**
 * A labelled select (Radix: a listbox with keyboard and typeahead). Inside a
 * form it also submits its value under `name`.
 */
export function Select({ label, name, options, className, ...props }: SelectProps) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <SelectPrimitive.Root name={name} {...props}>
        <SelectPrimitive.Trigger
          id={id}
          className={cn(
            "inline-flex min-h-10 items-center justify-between gap-2 rounded-md border border-zinc-300 bg-white px-3 py-2 text-left text-sm dark:border-zinc-700 dark:bg-zinc-900",
            className,
          )}
        >
          <span className="min-w-0 break-words">
            <SelectPrimitive.Value />
          </span>
          <SelectPrimitive.Icon aria-hidden className="text-zinc-500 dark:text-zinc-400">
            ▾
          </SelectPrimitive.Icon>
        </SelectPrimitive.Trigger>
        <SelectPrimitive.Portal>
          <SelectPrimitive.Content
            position="popper"
            sideOffset={4}
            collisionPadding={8}
            className={cn(
              popoverPanelClasses,
              // A long option wraps inside the screen instead of running off a phone's edge.
              "max-h-(--radix-select-content-available-height) max-w-(--radix-select-content-available-width) min-w-(--radix-select-trigger-width) overflow-hidden",
            )}
          >
            <SelectPrimitive.Viewport className="p-1">
              {options.map(([value, text]) => (
                <SelectPrimitive.Item
                  key={value}
                  value={value}
                  className={cn(popoverItemClasses, "py-2 break-words data-[state=checked]:font-semibold")}
                >
                  <SelectPrimitive.ItemText>{text}</SelectPrimitive.ItemText>
                </SelectPrimitive.Item>
              ))}
            </SelectPrimitive.Viewport>
          </SelectPrimitive.Content>
        </SelectPrimitive.Portal>
      </SelectPrimitive.Root>
    </div>
  );
}
