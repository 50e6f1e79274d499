"use client";

import { useState } from "react";
import { FormAlert } from "@/components/forms/form-alert";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { createTeamAction } from "@/lib/web/actions/teams";
import { proposeSlug, SLUG_MAX, TEAM_NAME_MAX } from "@/lib/teams/slug";

/** A new team: its name, and its address (proposed from the name until the person types one). */
export function CreateTeamForm() {
  const { pending, form, error, fieldError, value } = useActionForm(createTeamAction);
  const [name, setName] = useState(value("name") ?? "");
  const [slug, setSlug] = useState(value("slug") ?? "");
  const [slugTyped, setSlugTyped] = useState(Boolean(value("slug")));
  const shownSlug = slugTyped ? slug : (proposeSlug(name) ?? "");
  return (
    <form {...form} className="mt-6 flex max-w-lg flex-col gap-4" noValidate>
      {/* A refusal on a field is said there; the alert is for the others. */}
      <FormAlert message={fieldError("name") || fieldError("slug") ? undefined : error} />
      <Input
        label="Name"
        name="name"
        required
        maxLength={TEAM_NAME_MAX}
        value={name}
        onChange={(event) => setName(event.target.value)}
        hint="Shown in the header and to the team's members."
        error={fieldError("name")}
      />
      <Input
        label="Address"
        name="slug"
        maxLength={SLUG_MAX}
        value={shownSlug}
        onChange={(event) => {
          setSlugTyped(true);
          setSlug(event.target.value);
        }}
        hint="In every link to the team's pages: 3 to 40 lowercase letters, digits and hyphens, starting with a letter. It never changes."
        error={fieldError("slug")}
      />
      <div>
        <Button type="submit" disabled={pending}>
          Create team
        </Button>
      </div>
    </form>
  );
}
