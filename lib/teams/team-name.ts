import { z } from "zod";
import { holdsApiKey } from "../keys/key-in-text";
import { BIDI_CONTROLS, CONTROL_CHARACTERS } from "../text";
import { TEAM_NAME_MAX } from "./slug";

/** Line and paragraph separators, zero-width and other characters that show nothing (soft hyphen, word joiner, BOM). */
const INVISIBLE_OR_BREAKING = /[\u00AD\u180E\u200B-\u200F\u2028\u2029\u2060-\u2064\uFEFF]/;

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
  .refine((name) => !holdsApiKey(name), "The name cannot contain an API key.");
