import { z } from "zod";
import { holdsApiKey } from "../keys/key-in-text";
import { BIDI_CONTROLS, CONTROL_CHARACTERS, ENCODED_WORD, INVISIBLE_OR_BREAKING } from "../text";
import { TEAM_NAME_MAX } from "./slug";

/** A team's name: shown in the header, the switcher and mails. */
export const teamNameSchema = z
  .string({ error: "Give the team a name." })
  .trim()
  .min(1, "Give the team a name.")
  .max(TEAM_NAME_MAX, `Use at most ${TEAM_NAME_MAX} characters for the team's name.`)
  .refine((name) => !CONTROL_CHARACTERS.test(name), "The name cannot contain control characters.")
  .refine((name) => !BIDI_CONTROLS.test(name), "The name cannot contain text-direction control characters.")
  // Shown in the switcher and in mail subjects: a line separator would start a new line of a mail, and characters
  // that show nothing would make two names look alike (the attack review of teams).
  .refine(
    (name) => !INVISIBLE_OR_BREAKING.test(name),
    "The name cannot contain line separators or invisible characters.",
  )
  .refine((name) => !ENCODED_WORD.test(name), "The name cannot contain an encoded mail word (=?…?=).")
  .refine((name) => !holdsApiKey(name), "The name cannot contain an API key.");
