import { z } from "zod";
import { isReceivedFile, type ReceivedFile } from "../files/received-file";
import { BIDI_CONTROLS, CONTROL_CHARACTERS } from "../text";

export const PURPOSE_MAX_LENGTH = 64;
/** As most file systems allow; a longer name is refused before it is read for keys (an attack review sent 15 KB). */
export const FILENAME_MAX_LENGTH = 255;

const PURPOSE_ERROR = `purpose must be text of at most ${PURPOSE_MAX_LENGTH} characters, without control characters.`;

/**
 * The form fields of POST /api/v1/files. The handler streams the body to
 * disk itself, then validates what it received with this schema (400
 * invalid_request naming the field); the docs' table reads it too.
 */
export const uploadFormSchema = z.object({
  file: z
    // abort: a missing file stops here, before the check that reads its size.
    .custom<ReceivedFile>(isReceivedFile, { error: 'Send the file in a multipart field named "file".', abort: true })
    .refine((file) => file.bytes > 0, "The file is empty.")
    .refine(
      (file) => file.filename.length <= FILENAME_MAX_LENGTH,
      `The file's name must be at most ${FILENAME_MAX_LENGTH} characters.`,
    )
    .describe(
      `The file's bytes; not empty. Its name (at most ${FILENAME_MAX_LENGTH} characters) is kept too, so it must not hold an API key (400 api_key_misplaced).`,
    ),
  purpose: z
    .string()
    .max(PURPOSE_MAX_LENGTH, PURPOSE_ERROR)
    // Shown back in lists and the dashboard: no controls, no text-direction overrides.
    .refine((value) => !CONTROL_CHARACTERS.test(value) && !BIDI_CONTROLS.test(value), PURPOSE_ERROR)
    .optional()
    .describe(
      "Your own note about the file, kept with it; no control or text-direction characters, and never an API key (400 api_key_misplaced).",
    ),
});
