import type { KeyEnvironment } from "./format";

/** The create form's expiry choices: never, 30 or 90 days, or a date. */
export const EXPIRY_CHOICES = ["never", "30", "90", "date"] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number];

/** What the create form suggests: production keys expire (GitHub requires expiry); development keys keep "never". */
export const DEFAULT_EXPIRY: Record<KeyEnvironment, ExpiryChoice> = { dev: "never", prod: "90" };
