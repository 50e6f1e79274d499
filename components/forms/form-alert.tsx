import type { ReactNode } from "react";

/** A form's error, announced when it appears; focusable so the form can move focus to it. */
export function FormAlert({ message, children }: { message?: string | undefined; children?: ReactNode }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      tabIndex={-1}
      className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
    >
      {message}
      {children}
    </p>
  );
}
