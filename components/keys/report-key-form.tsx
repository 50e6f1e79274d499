"use client";

import { FormAlert } from "@/components/forms/form-alert";
import { FormDone } from "@/components/forms/form-done";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { reportKeyAction } from "@/lib/web/actions/report-a-key";

// Posts to a server action, so it works without JavaScript. Once sent, the
// form gives way to the answer, which is the same whatever the key was.
export function ReportKeyForm() {
  const { state, pending, form, error, fieldError, value } = useActionForm(reportKeyAction);
  if (state?.ok) return <FormDone>{state.data}</FormDone>;
  return (
    <form {...form} className="flex flex-col gap-4" noValidate>
      <FormAlert message={error} />
      <Textarea
        label="The key you found"
        name="key"
        rows={4}
        required
        autoComplete="off"
        spellCheck={false}
        hint="Paste the key, or the line, file or log it was in: every key that starts with sk_dev_ or sk_prod_ is read from it (up to 50)."
        error={fieldError("key")}
      />
      <Input
        label="Where you found it (optional)"
        name="url"
        type="url"
        defaultValue={value("url")}
        hint="A public web address, so its owner can clean it up."
        error={fieldError("url")}
      />
      <Button type="submit" disabled={pending}>
        {pending ? "Reporting…" : "Report this key"}
      </Button>
    </form>
  );
}
