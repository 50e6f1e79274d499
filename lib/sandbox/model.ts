// The sandbox model behind the three model routes: a deterministic stand-in,
// so an integrator can point a client library at Keyport and make real calls
// with a key. The same prompt always gets the same reply, and the reply says
// where it comes from.

export interface SandboxReply {
  text: string;
  /** The reply cut into the pieces a stream sends. */
  tokens: string[];
  promptTokens: number;
  completionTokens: number;
  /** True when max tokens cut the reply short. */
  truncated: boolean;
}

const countTokens = (text: string) => (text.trim() === "" ? 0 : text.trim().split(/\s+/).length);

export function sandboxReply(model: string, prompt: string, maxTokens?: number): SandboxReply {
  const quoted = prompt.trim().replace(/\s+/g, " ").slice(0, 200);
  const full = `This is the Keyport sandbox (${model}), a deterministic test model: no real model was called. You said: "${quoted}"`;
  const words = full.split(" ");
  const limit = maxTokens === undefined ? words.length : Math.max(1, Math.min(words.length, maxTokens));
  const tokens = words.slice(0, limit).map((word, i) => (i === 0 ? word : ` ${word}`));
  return {
    text: tokens.join(""),
    tokens,
    promptTokens: countTokens(prompt),
    completionTokens: tokens.length,
    truncated: limit < words.length,
  };
}

// eslint-disable-next-line no-restricted-syntax -- a count the tests read (streams are not buffered); no resource.
let produced = 0;

/** How many tokens the sandbox has produced in this process: lets tests see that streams are not buffered. */
export function producedTokenCount(): number {
  return produced;
}

/**
 * The reply's tokens, one at a time, produced only as the reader asks for
 * them (SANDBOX_TOKEN_DELAY_MS paces them, for tests and demos). Stops as soon
 * as the consumer stops reading.
 */
export async function* streamTokens(reply: SandboxReply, delayMs: number): AsyncGenerator<string> {
  for (const token of reply.tokens) {
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    produced++;
    yield token;
  }
}
