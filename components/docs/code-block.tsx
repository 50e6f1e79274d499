import { highlight, type CodeLanguage } from "@/lib/docs/highlight";
import { CopyButton } from "./copy-button";

export interface ExampleTag {
  route: string;
  language: string;
  form?: string;
  variant?: string;
}

/**
 * A highlighted code block with a copy button. Examples carry data-example-*
 * attributes: the e2e suite finds them by these and runs them.
 */
export async function CodeBlock({
  code,
  lang,
  title,
  example,
}: {
  code: string;
  lang: CodeLanguage;
  title?: string;
  example?: ExampleTag;
}) {
  const html = await highlight(code, lang);
  return (
    <figure
      data-code-block=""
      data-example-route={example?.route}
      data-example-language={example?.language}
      data-example-form={example?.form}
      data-example-variant={example?.variant}
      className="my-4 overflow-hidden rounded-md border border-zinc-200 dark:border-zinc-800"
    >
      <figcaption className="flex items-center justify-between gap-2 border-b border-zinc-200 bg-zinc-50 px-3 py-1.5 text-xs text-zinc-700 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-300">
        <span>{title ?? lang}</span>
        <CopyButton />
      </figcaption>
      <div className="docs-code text-sm" dangerouslySetInnerHTML={{ __html: html }} />
    </figure>
  );
}
