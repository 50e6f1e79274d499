import { Fragment } from "react";

/**
 * The error catalog's text marks code with backticks (`Retry-After`), which the
 * API sends as they are; on a page each marked span becomes <code>.
 */
export function CatalogText({ text }: { text: string }) {
  return (
    <>
      {text
        .split("`")
        .map((part, index) =>
          index % 2 === 1 ? <code key={index}>{part}</code> : <Fragment key={index}>{part}</Fragment>,
        )}
    </>
  );
}
