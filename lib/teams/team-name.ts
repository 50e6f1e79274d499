import { z } from "zod";
import { holdsApiKey } from "../keys/key-in-text";
import { BIDI_CONTROLS, CONTROL_CHARACTERS } from "../text";
import { TEAM_NAME_MAX } from "./slug";

/** A team's name: shown in the header, the switcher and mails. */
export const teamNameSchema = z
  .string({ error: "Give the team a name." })
  .trim()
  .min(1, "Give the team a name.")
  .max(TEAM_NAME_MAX, `Use at most ${TEAM_NAME_MAX} characters for the team's name.`)
  .refine((name) => !CONTROL_CHARACTERS.test(name), "The name cannot contain control characters.")
  .refine((name) => !BIDI_CONTROLS.test(name), "The name cannot contain text-direction control characters.")
  .refine((name) => !holdsApiKey(name), "The name cannot contain an API key.");
