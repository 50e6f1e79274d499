import { useId, type ReactNode } from "react";
import { cn } from "./cn";

// The frame every labelled control shares: a visible label, and a hint and an
// error tied to the control with aria-describedby.

export interface FieldProps {
  label: string;
  /** Shown under the field and announced with it. */
  hint?: ReactNode;
  /** A message for this field; marks it invalid. */
  error?: string | undefined;
  id?: string | undefined;
}

export interface ControlProps {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}

export const controlClasses = (error: string | undefined, className?: string) =>
  cn(
    "min-h-10 rounded-md border bg-white px-3 py-2 text-sm dark:bg-zinc-900",
    error ? "border-red-600 dark:border-red-400" : "border-zinc-300 dark:border-zinc-700",
    className,
  );

export function Field({
  label,
  hint,
  error,
  id,
  children,
}: FieldProps & { children: (control: ControlProps) => ReactNode }) {
  const generatedId = useId();
  const controlId = id ?? generatedId;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={controlId} className="text-sm font-medium">
        {label}
      </label>
      {children({
        id: controlId,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": [hintId, errorId].filter(Boolean).join(" ") || undefined,
      })}
      {hint && (
        <p id={hintId} className="text-xs text-zinc-600 dark:text-zinc-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}
