import type { ReactNode } from "react";

/** What a form says once it is done (in place of the form), announced politely. */
export function FormDone({ children, className = "" }: { children: ReactNode; className?: string }) {
  return (
    <p
      role="status"
      className={`rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100 ${className}`}
    >
      {children}
    </p>
  );
}
