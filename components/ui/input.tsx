import type { InputHTMLAttributes } from "react";
import { controlClasses, Field, type FieldProps } from "./field";

type InputProps = FieldProps & Omit<InputHTMLAttributes<HTMLInputElement>, "id">;

/** A labelled input: every field has a visible label, and its hint and error are tied to it. */
export function Input({ label, hint, error, className, id, ...props }: InputProps) {
  return (
    <Field label={label} hint={hint} error={error} id={id}>
      {(control) => <input {...control} className={controlClasses(error, className)} {...props} />}
    </Field>
  );
}
