import Bowser from "bowser";
import { cleanUserAgent } from "../text";

/** "Chrome 156 on Linux", for the sessions list. */
export function describeUserAgent(userAgent: string | null): string {
  // Read as stored: Bowser names an unknown client by its first word, which may be a key ("sk_dev_.../1.0"),
  // and the description is mailed and kept with the mail.
  const stored = cleanUserAgent(userAgent);
  if (!stored) return "Unknown browser";
  const parsed = Bowser.parse(stored);
  const browser = [parsed.browser.name, parsed.browser.version?.split(".")[0]].filter(Boolean).join(" ");
  const os = parsed.os.name;
  if (!browser) return "Unknown browser";
  return os ? `${browser} on ${os}` : browser;
}
