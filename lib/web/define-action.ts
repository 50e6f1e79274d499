import "server-only";
import { headers } from "next/headers";
import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import { failure, invalid, isForm, NOT_A_FORM, ok, type ActionResult, type ActionState } from "./action-result";
import { carriesApiKey } from "../auth/api-key-headers";
import { clientIp } from "../auth/client-ip";
import { API_KEY_REFUSED_MESSAGE, requireActionSession } from "./guard";
import { BUSY_MESSAGE, PasswordCheckBusy } from "../auth/password";
import type { ActiveSession } from "../auth/session-store";
import { recentlyVerified, STEP_UP_FIELD, STEP_UP_MESSAGE } from "../auth/step-up";
import { isDatabaseBusy } from "../database-busy";
import { DomainError } from "../domain-error";
import { getEnv } from "../env";
import { log } from "../log";
import { runtime } from "../runtime/runtime";
import { errorType, type TraceSpan } from "../tracing/tracing";
import { memberBySlug, TEAM_NOT_FOUND, type TeamMember } from "../teams/membership";

// The one wrapper of every server action (compare next-safe-action's action
// client, which dub uses; docs/architecture.md says why ours is this small
// file instead). In one place, in this order: a request that carries an API
// key is refused; a "session" action runs the session guard; the form is
// parsed with the action's zod schema; a form that names a team is refused
// unless the person is in it; a change that needs a fresh sign-in is refused
// without one (checked here, on the server, whatever the dialog did); then the
// work runs. A DomainError becomes the form's error (on its field),
// a full queue of password checks or a busy database "busy"; anything else is
// logged and answered with a generic error; a redirect passes through. Secrets
// (passwords, codes, a pasted key) are never echoed back into the form.

export type ActionAccess = "session" | "public";

export interface ActionContext<I, A extends ActionAccess> {
  input: I;
  formData: FormData;
  /** The signed-in session: always there for a "session" action, never for a "public" one. */
  session: A extends "session" ? ActiveSession : null;
  /** With `team`: the person's membership of the team the form names (else the action was refused). */
  member: TeamMember | null;
  /** The client's address and browser, as this server sees them. */
  ip: string;
  userAgent: string | null;
}

export interface ActionSpec<S extends z.ZodType, T, A extends ActionAccess> {
  /** "session": the session guard runs first. "public" (sign-in, sign-up, reset, report): no session needed. */
  access: A;
  /** The form's fields, parsed from the whole form; a function when the rules depend on who asks. */
  input: S | ((session: A extends "session" ? ActiveSession : null) => S);
  /** Fields never sent back into the form. */
  secrets?: readonly string[];
  /** Whether this change needs a fresh sign-in (lib/auth/step-up.ts): always, or as the input decides. */
  stepUp?: true | ((input: z.output<S>, session: ActiveSession) => Promise<boolean>);
  /**
   * The team the form acts in, by its slug (a form field): the person must be a member, or the action is refused
   * as "not found", exactly as for a team that does not exist. What their role may do is checked by the domain,
   * under the team's lock, in the change's own transaction (docs/architecture.md says why).
   */
  team?: (input: z.output<S>) => string | undefined;
  /** The log event of an unexpected failure. */
  failureEvent?: string;
  run(context: ActionContext<z.output<S>, A>): Promise<T>;
}

/**
 * A database too busy to take a query in time (lib/database-busy.ts), at any step: the form's error, what was
 * typed kept. It does not say "nothing was changed": each domain change is one transaction (its audit row inside),
 * so the change the form asked for was rolled back or never began, but a few actions take steps one after another
 * (sign-in counts the attempt before the session; confirming a sign-up spends the link before the account is made;
 * an invitation's sign-up makes the account before joining the team), and a busy database can stop them between two.
 */
export const DATABASE_BUSY_MESSAGE = "Keyport is busy right now and could not finish this. Try again in a few seconds.";

/** A marker on every action made here: tests/integration/action-wrapper.test.ts finds each export wears it. */
export const DEFINED_ACTION = Symbol.for("keyport.defined-action");

export type DefinedAction<T> = ((previous: ActionState<T>, formData: FormData) => Promise<ActionResult<T>>) & {
  [DEFINED_ACTION]: ActionAccess;
};

export function defineAction<S extends z.ZodType, T, A extends ActionAccess>(
  spec: ActionSpec<S, T, A>,
): DefinedAction<T> {
  // With tracing on, each call is a trace of its own ("server action").
  const action = async (_previous: ActionState<T>, formData: FormData): Promise<ActionResult<T>> => {
    const span = runtime().tracing?.start("server action", "internal", { "keyport.action.access": spec.access });
    try {
      const result = await answer(spec, formData, span);
      span?.set({ "keyport.action.outcome": result.ok ? "ok" : "refused" });
      return result;
    } catch (error) {
      // Next's own (a redirect) is no failure.
      unstable_rethrow(error);
      // Overload, not a fault, wherever it struck (the session guard reads the database as the work does): answered
      // here rather than thrown on, so the form keeps what was typed, with script or without (a plain post gets the
      // page again with this error, not the 503 page of lib/http/busy-page.ts).
      if (isDatabaseBusy(error)) {
        span?.set({ "keyport.action.outcome": "busy" });
        log.warn("action.database_busy", { trace_id: span?.traceId });
        return failure(DATABASE_BUSY_MESSAGE, formData, { omit: spec.secrets ?? [] });
      }
      span?.fail(errorType(error));
      throw error;
    } finally {
      span?.end();
    }
  };
  return Object.assign(action, { [DEFINED_ACTION]: spec.access });
}

/** The wrapper's steps, in order (see the top of this file). */
async function answer<S extends z.ZodType, T, A extends ActionAccess>(
  spec: ActionSpec<S, T, A>,
  formData: FormData,
  span: TraceSpan | undefined,
): Promise<ActionResult<T>> {
  const omit = spec.secrets ?? [];
  const requestHeaders = await headers();
  // Next's id of the action (its header, on a call from the page's script): which action, in a trace.
  span?.set({ "next.action_id": requestHeaders.get("next-action") ?? undefined });
  if (carriesApiKey(requestHeaders)) return failure(API_KEY_REFUSED_MESSAGE, formData, { omit });
  let session: ActiveSession | null = null;
  if (spec.access === "session") {
    const guard = await requireActionSession();
    if (!guard.ok) return failure(guard.error, formData, { omit });
    session = guard.session;
  }
  if (!isForm(formData)) return failure(NOT_A_FORM);
  const schema = typeof spec.input === "function" ? spec.input(session as never) : spec.input;
  const parsed = schema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) return invalid(parsed.error, formData, omit);
  let member: TeamMember | null = null;
  const slug = session && spec.team ? spec.team(parsed.data) : undefined;
  if (session && slug !== undefined) {
    member = await memberBySlug(session.userId, slug);
    if (!member) return failure(TEAM_NOT_FOUND, formData, { omit });
  }
  if (session && spec.stepUp && (spec.stepUp === true || (await spec.stepUp(parsed.data, session)))) {
    // The refusal names STEP_UP_FIELD, so the page asks for the fresh sign-in and sends the same form again.
    if (!(await recentlyVerified(session))) {
      return failure(STEP_UP_MESSAGE, formData, { fieldErrors: { [STEP_UP_FIELD]: [STEP_UP_MESSAGE] }, omit });
    }
  }
  try {
    const data = await spec.run({
      input: parsed.data,
      formData,
      session: session as ActionContext<z.output<S>, A>["session"],
      member,
      ip: clientIp(requestHeaders, getEnv().TRUST_PROXY),
      userAgent: requestHeaders.get("user-agent"),
    });
    return ok(data);
  } catch (error) {
    unstable_rethrow(error);
    if (error instanceof DomainError) {
      const field = error.options.field;
      return failure(error.message, formData, { fieldErrors: field ? { [field]: [error.message] } : {}, omit });
    }
    if (error instanceof PasswordCheckBusy) return failure(BUSY_MESSAGE, formData, { omit });
    // No database connection (or SQLite's write lock) in time: answered by the wrapper's outer catch, above.
    if (isDatabaseBusy(error)) throw error;
    span?.fail(errorType(error));
    log.error(spec.failureEvent ?? "action.failed", {
      user_id: session?.userId,
      trace_id: span?.traceId,
      error: String((error as Error)?.message),
    });
    return failure("Something went wrong; nothing was changed. Try again.", formData, { omit });
  }
}
