import { Fragment } from "react";

/** A route's name (create_chat_completion) that wraps after an underscore on a narrow screen, never mid-word. */
export function RouteName({ name }: { name: string }) {
  const parts = name.split("_");
  return (
    <span className="font-mono">
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 && (
            <>
              _<wbr />
            </>
          )}
        </Fragment>
      ))}
    </span>
  );
}
