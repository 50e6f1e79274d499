import "server-only";
import { hash, verify, type Algorithm } from "@node-rs/argon2";

// Algorithm.Argon2id; the package declares it as a const enum, which
// TypeScript cannot read across modules under isolatedModules.
const ARGON2ID = 2 as Algorithm;

/** OWASP's minimum for Argon2id: 19 MiB of memory, 2 iterations, parallelism 1. */
export const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * A hash of a password nobody knows. Signing in with an unknown email still
 * verifies against it, so an unknown email costs the same Argon2 work as a
 * wrong password and the two cannot be told apart.
 */
export const DUMMY_PASSWORD_HASH =
  "$argon2id$v=19$m=19456,t=2,p=1$VGywTiHnJjgJHz/hhdXZfg$s2sDMLW+olHZd7eHTusJNm82Ws1mKEpyiRqSeQaHcwE";

// Each Argon2 run takes 19 MiB: at most this many run at once per process,
// the rest wait their turn, so a burst of sign-ins cannot exhaust memory.
const MAX_CONCURRENT = 4;
let active = 0;
const waiting: (() => void)[] = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (active >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  active++;
  try {
    return await work();
  } finally {
    active--;
    waiting.shift()?.();
  }
}

// An object rather than bare functions, so tests can observe the calls.
export const passwordHasher = {
  hash: (password: string) => limited(() => hash(password, ARGON2_OPTIONS)),
  verify: (passwordHash: string, password: string) => limited(() => verify(passwordHash, password).catch(() => false)),
};
