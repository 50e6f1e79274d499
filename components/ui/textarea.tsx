import type { TextareaHTMLAttributes } from "react";
import { cn } from "./cn";
import { controlClasses, Field, type FieldProps } from "./field";

type TextareaProps = FieldProps & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id">;

/** A labelled, multi-line text field. */
export function Textarea({ label, hint, error, className, id, ...props }: TextareaProps) {
  return (
    <Field label={label} hint={hint} error={error} id={id}>
      {(control) => <textarea {...control} className={controlClasses(error, cn("font-mono", className))} {...props} />}
    </Field>
  );
}
