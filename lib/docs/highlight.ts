import "server-only";
import { createHighlighter, type Highlighter } from "shiki";
import { createJavaScriptRegexEngine } from "shiki/engine/javascript";

// Code is highlighted once, at build time, on the server: the pages ship
// coloured HTML and no highlighter. Both themes are in the markup as CSS
// variables; globals.css picks one by the reader's colour scheme.
export const codeLanguages = ["bash", "javascript", "tsx", "python", "json", "text"] as const;
export type CodeLanguage = (typeof codeLanguages)[number];

// eslint-disable-next-line no-restricted-syntax -- a memo of an expensive pure object (the highlighter), also used by `next build`, which has no runtime.
let highlighter: Promise<Highlighter> | undefined;

function load(): Promise<Highlighter> {
  highlighter ??= createHighlighter({
    themes: ["github-light-default", "github-dark-default"],
    langs: codeLanguages.filter((lang) => lang !== "text"),
    // The JavaScript engine needs no WebAssembly at build time.
    engine: createJavaScriptRegexEngine(),
  });
  return highlighter;
}

/** Highlighted HTML for a code block: a <pre> whose spans carry both themes' colours. */
export async function highlight(code: string, lang: CodeLanguage): Promise<string> {
  const shiki = await load();
  return shiki.codeToHtml(code, {
    lang,
    themes: { light: "github-light-default", dark: "github-dark-default" },
    defaultColor: false,
  });
}
