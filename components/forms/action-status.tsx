import type { ActionState } from "@/lib/web/action-result";

/** A small form's answer beside its button: what was done, or why not; announced as it changes. */
export function ActionStatus({ state }: { state: ActionState<string | undefined> }) {
  return (
    <span role="status" className="text-sm break-words">
      {state ? (state.ok ? state.data : state.error) : ""}
    </span>
  );
}
