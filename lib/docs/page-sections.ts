// A prerendered docs page read back into search entries: each
// <section aria-labelledby="id"> with its <h2 id="id"> (components/docs/docs-article.tsx)
// becomes "page#id" with the heading as its title and the section's text,
// code blocks included ("python" finds the Python examples), as what finds it.
import { DomUtils, parseDocument } from "htmlparser2";
import type { SearchEntry } from "./search";

/** A section's text past this is cut: the index stays small, and a section's opening says what it is about. */
const TEXT_MAX = 6_000;

const squeeze = (text: string) => text.replace(/\s+/g, " ").trim();

/** The page's sections as entries; a page without sections gives none (its own entry covers it). */
export function pageSections(html: string, page: { title: string; href: string }): SearchEntry[] {
  const document = parseDocument(html);
  const sections = DomUtils.findAll(
    (element) => element.name === "section" && typeof element.attribs["aria-labelledby"] === "string",
    document.children,
  );
  return sections.flatMap((section) => {
    const id = section.attribs["aria-labelledby"]!;
    const heading = DomUtils.findOne((element) => element.name === "h2" && element.attribs.id === id, [section]);
    if (!heading) return [];
    return [
      {
        title: squeeze(DomUtils.textContent(heading)),
        href: `${page.href}#${id}`,
        kind: "section" as const,
        page: page.title,
        text: squeeze(DomUtils.textContent(section)).slice(0, TEXT_MAX),
      },
    ];
  });
}
