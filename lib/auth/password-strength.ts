import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import * as common from "@zxcvbn-ts/language-common";
import * as english from "@zxcvbn-ts/language-en";

// How guessable a new password is, by zxcvbn (Dropbox's estimator, in its
// TypeScript port): common passwords, English words and names, keyboard
// patterns, sequences, dates and l33t spellings all count against it. The
// dictionaries load once, when this module is first imported (server only:
// no form imports it). Old passwords are never checked, only new ones.

const zxcvbn = new ZxcvbnFactory({
  dictionary: { ...common.dictionary, ...english.dictionary },
  graphs: common.adjacencyGraphs,
  translations: english.translations,
});

/** zxcvbn's scale: 0 (guessed at once) to 4; 3 resists an offline attack on a slow hash for a long time. */
export const MIN_PASSWORD_SCORE = 3;

// zxcvbn's time grows with length; nothing longer than this is ever weak.
const CHECKED_LENGTH = 100;

export type PasswordStrength = { ok: true } | { ok: false; reason: string };

/**
 * Whether a new password is strong enough. `userInputs` are words the
 * password must not lean on (the account's email and its parts), so
 * "alice.smith2026" is weak for alice.smith@example.com.
 */
export function checkPasswordStrength(password: string, userInputs: readonly string[] = []): PasswordStrength {
  const result = zxcvbn.check(password.slice(0, CHECKED_LENGTH), [...userInputs.flatMap(inputsFrom)]);
  if (result.score >= MIN_PASSWORD_SCORE) return { ok: true };
  const { warning, suggestions } = result.feedback;
  const why = warning ? `${warning}` : "This password is too easy to guess.";
  const advice = suggestions.length > 0 ? suggestions.join(" ") : "Add more words that are less common.";
  return { ok: false, reason: `${withStop(why)} ${advice}` };
}

/** An email counts as itself, its local part and the words in it. */
function inputsFrom(input: string): string[] {
  const lower = input.trim().toLowerCase();
  if (!lower) return [];
  const local = lower.split("@")[0] ?? lower;
  return [lower, local, ...local.split(/[^a-z0-9]+/).filter((word) => word.length > 2)];
}

const withStop = (sentence: string) => (/[.!?]$/.test(sentence) ? sentence : `${sentence}.`);
