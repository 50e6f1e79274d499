import { useId, type InputHTMLAttributes } from "react";
import { cn } from "./cn";

interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  /** Shown under the field and announced with it. */
  hint?: string;
  /** A message for this field; marks it invalid. */
  error?: string | undefined;
}

/** A labelled input: every field has a visible label, and its hint and error are tied to it. */
export function Input({ label, hint, error, className, id, ...props }: InputProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={inputId} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(" ") || undefined}
        className={cn(
          "min-h-10 rounded-md border bg-white px-3 py-2 text-sm dark:bg-zinc-900",
          error ? "border-red-600 dark:border-red-400" : "border-zinc-300 dark:border-zinc-700",
          className,
        )}
        {...props}
      />
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
