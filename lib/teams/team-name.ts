import { z } from "zod";
import { holdsApiKey } from "../keys/key-in-text";
import { BIDI_CONTROLS, CONTROL_CHARACTERS, ENCODED_WORD, INVISIBLE_OR_BREAKING } from "../text";
import { TEAM_NAME_MAX } from "./slug";

/**
 * A name people see in the header, the switcher, lists, the activity and mails: a team's, a service account's.
 * `what` names the thing in the messages ("team", "service account").
 */
export function shownNameSchema(what: string) {
  return (
    z
      .string({ error: `Give the ${what} a name.` })
      .trim()
      .min(1, `Give the ${what} a name.`)
      .max(TEAM_NAME_MAX, `Use at most ${TEAM_NAME_MAX} characters for the ${what}'s name.`)
      .refine((name) => !CONTROL_CHARACTERS.test(name), "The name cannot contain control characters.")
      .refine((name) => !BIDI_CONTROLS.test(name), "The name cannot contain text-direction control characters.")
      // A line separator would start a new line of a mail, and characters that show nothing would make two names
      // look alike (the attack review of teams).
      .refine(
        (name) => !INVISIBLE_OR_BREAKING.test(name),
        "The name cannot contain line separators or invisible characters.",
      )
      .refine((name) => !ENCODED_WORD.test(name), "The name cannot contain an encoded mail word (=?…?=).")
      .refine((name) => !holdsApiKey(name), "The name cannot contain an API key.")
  );
}

/** A team's name. */
export const teamNameSchema = shownNameSchema("team");
