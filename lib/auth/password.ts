import "server-only";
import { hash, verify, type Algorithm } from "@node-rs/argon2";
import { testHashingAllowed } from "./test-hashing";
import { ConcurrencyLimit } from "../concurrency-limit";
import { runtime } from "../runtime/runtime";

// Algorithm.Argon2id; the package declares it as a const enum, which
// TypeScript cannot read across modules under isolatedModules.
const ARGON2ID = 2 as Algorithm;

/** OWASP's minimum for Argon2id: 19 MiB of memory, 2 iterations, parallelism 1. */
export const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * The test suite's parameters (lib/auth/test-hashing.ts says when they apply):
 * Argon2's smallest memory, one pass. Never used with a database that could
 * hold a real account.
 */
export const TEST_ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 64, timeCost: 1, parallelism: 1 } as const;

/** The parameters new hashes get: OWASP's, unless this is the test suite on a test database. */
export function argon2Options(): typeof ARGON2_OPTIONS | typeof TEST_ARGON2_OPTIONS {
  return testHashingAllowed() ? TEST_ARGON2_OPTIONS : ARGON2_OPTIONS;
}

/**
 * Whether a stored hash was made with weaker parameters than new hashes get
 * (the suite's, in a database that later runs without test mode, or an older
 * default): the next successful sign-in replaces it (lib/auth/accounts.ts).
 */
export function weakerThanCurrent(passwordHash: string): boolean {
  const made = /^\$argon2id\$v=\d+\$m=(\d+),t=(\d+),p=\d+\$/.exec(passwordHash);
  if (!made) return true;
  const current = argon2Options();
  return Number(made[1]) < current.memoryCost || Number(made[2]) < current.timeCost;
}

/**
 * A hash of a password nobody knows, with the parameters new hashes get.
 * Signing in with an unknown email still verifies against it, so an unknown
 * email costs the same Argon2 work as a wrong password and the two cannot be
 * told apart.
 */
export function dummyPasswordHash(): string {
  return argon2Options() === ARGON2_OPTIONS ? DUMMY_PASSWORD_HASH : TEST_DUMMY_PASSWORD_HASH;
}
/** The dummy hash at OWASP's parameters (tests that need a slow check use it directly). */
export const DUMMY_PASSWORD_HASH =
  "$argon2id$v=19$m=19456,t=2,p=1$VGywTiHnJjgJHz/hhdXZfg$s2sDMLW+olHZd7eHTusJNm82Ws1mKEpyiRqSeQaHcwE";
const TEST_DUMMY_PASSWORD_HASH =
  "$argon2id$v=19$m=64,t=1,p=1$hSMWjETfWKvxdEUgcs3Ndg$p5gScAERGCkFXuBBwlAcYjhcJWg0s1XmOKa22KU94vQ";

// Each Argon2 run takes 19 MiB: at most MAX_CONCURRENT run at once per
// process, so a burst of sign-ins cannot exhaust memory. At most MAX_WAITING
// wait their turn; past that the check is refused at once (PasswordCheckBusy),
// so a flood of wrong guesses cannot make a real user's sign-in wait behind it.
export const MAX_CONCURRENT = 4;
export const MAX_WAITING = 32;

export class PasswordCheckBusy extends Error {
  override name = "PasswordCheckBusy";
  constructor() {
    super("Too many password checks are waiting.");
  }
}

/** Seconds a client told "busy" should wait before trying again. */
export const BUSY_RETRY_AFTER_SECONDS = 2;

export const BUSY_MESSAGE = "Too many sign-ins are in progress right now. Try again in a moment.";

/** The process's limit on password checks (the runtime holds one: lib/runtime/create-runtime.ts). */
export function createPasswordCheckLimit(): ConcurrencyLimit {
  return new ConcurrencyLimit({
    concurrent: MAX_CONCURRENT,
    waiting: MAX_WAITING,
    full: () => new PasswordCheckBusy(),
  });
}

function limited<T>(work: () => Promise<T>): Promise<T> {
  return runtime().passwordChecks.run(work);
}

// An object rather than bare functions, so tests can observe the calls.
export const passwordHasher = {
  /** Whether a new check would be refused right now. */
  saturated: () => runtime().passwordChecks.saturated(),
  hash: (password: string) => limited(() => hash(password, argon2Options())),
  verify: (passwordHash: string, password: string) => limited(() => verify(passwordHash, password).catch(() => false)),
};
