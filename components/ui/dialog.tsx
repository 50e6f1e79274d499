"use client";

import { AlertDialog as AlertPrimitive, Dialog as DialogPrimitive } from "radix-ui";
import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";

// Modal dialogs on Radix primitives: focus is trapped and returned, Escape and
// the close button dismiss, and the title and description name the dialog.
// `Dialog` is for forms; `AlertDialog` is for a choice with consequences: it
// starts on its Cancel button and ignores clicks outside it.

const overlayClasses = "fixed inset-0 z-40 bg-black/50";
const contentClasses =
  "fixed left-1/2 top-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[min(32rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 flex-col overflow-y-auto rounded-lg border border-zinc-200 bg-white p-5 text-zinc-900 shadow-xl sm:p-6 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100";
const titleClasses = "pr-8 text-lg font-semibold break-words";
const descriptionClasses = "mt-1 text-sm text-zinc-600 dark:text-zinc-400";
const closeClasses =
  "absolute right-3 top-3 inline-flex size-8 items-center justify-center rounded-md text-xl leading-none text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800";

type ContentHandlers = Pick<
  ComponentProps<typeof DialogPrimitive.Content>,
  "onOpenAutoFocus" | "onCloseAutoFocus" | "onEscapeKeyDown"
>;

interface DialogProps extends ContentHandlers {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** What the close button does; by default it closes. */
  onCloseButton?: () => void;
  className?: string;
}

export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  onCloseButton,
  className,
  ...handlers
}: DialogProps) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={overlayClasses} />
        <DialogPrimitive.Content
          className={cn(contentClasses, className)}
          {...(description ? {} : { "aria-describedby": undefined })}
          {...handlers}
        >
          <DialogPrimitive.Title className={titleClasses}>{title}</DialogPrimitive.Title>
          {description && (
            <DialogPrimitive.Description className={descriptionClasses}>{description}</DialogPrimitive.Description>
          )}
          <div className="mt-4">{children}</div>
          {/* Last in the DOM, so opening starts in the form's first field. */}
          {onCloseButton ? (
            <button type="button" aria-label="Close" className={closeClasses} onClick={onCloseButton}>
              ×
            </button>
          ) : (
            <DialogPrimitive.Close aria-label="Close" className={closeClasses}>
              ×
            </DialogPrimitive.Close>
          )}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

export function AlertDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  className,
  ...handlers
}: Omit<DialogProps, "onCloseButton">) {
  return (
    <AlertPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <AlertPrimitive.Portal>
        <AlertPrimitive.Overlay className={overlayClasses} />
        <AlertPrimitive.Content
          className={cn(contentClasses, className)}
          {...(description ? {} : { "aria-describedby": undefined })}
          {...handlers}
          onOpenAutoFocus={(event) => focusMarked(event, handlers.onOpenAutoFocus)}
        >
          <AlertPrimitive.Title className={titleClasses}>{title}</AlertPrimitive.Title>
          {description && (
            <AlertPrimitive.Description className={descriptionClasses}>{description}</AlertPrimitive.Description>
          )}
          <div className="mt-4">{children}</div>
        </AlertPrimitive.Content>
      </AlertPrimitive.Portal>
    </AlertPrimitive.Root>
  );
}

/**
 * An alert dialog starts on its Cancel button; a dialog with no Cancel marks
 * the control to start on with `data-autofocus`.
 */
function focusMarked(event: Event, next?: (event: Event) => void) {
  const marked = (event.target as HTMLElement | null)?.querySelector<HTMLElement>("[data-autofocus]");
  if (marked) {
    event.preventDefault();
    marked.focus();
  }
  next?.(event);
}

/** The safe way out of an alert dialog; it receives focus when the dialog opens. */
export const AlertDialogCancel = AlertPrimitive.Cancel;

/** A row of dialog buttons: stacked on a phone, the safe choice first in reading order. */
export function DialogActions({ children }: { children: ReactNode }) {
  return <div className="mt-2 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{children}</div>;
}
