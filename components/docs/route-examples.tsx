import type { ExampleInput } from "@/lib/docs/example-inputs";
import {
  exampleLanguages,
  headerFormLabels,
  languageLabels,
  routeExamples,
  type ExampleLanguage,
} from "@/lib/docs/examples";
import type { CodeLanguage } from "@/lib/docs/highlight";
import type { PublicRoute } from "@/lib/public-api/routes";
import { CodeBlock } from "./code-block";
import { ExampleTabs } from "./example-tabs";

const highlighting: Record<ExampleLanguage, CodeLanguage> = { curl: "bash", node: "javascript", python: "python" };

/**
 * A route's request examples: a tab per language, the recommended Bearer form
 * first and the X-API-Key form beneath it.
 */
export function RouteExamples({
  baseUrl,
  route,
  input,
  variant = "request",
}: {
  baseUrl: string;
  route: PublicRoute;
  input: ExampleInput;
  variant?: string;
}) {
  const examples = routeExamples(baseUrl, route, input);
  return (
    <ExampleTabs
      label={`${route.method} ${route.path} examples${variant === "request" ? "" : ` (${variant})`}`}
      tabs={exampleLanguages.map((language) => ({
        label: languageLabels[language],
        panel: (
          <>
            {examples
              .filter((example) => example.language === language)
              .map((example) => (
                <CodeBlock
                  key={example.form}
                  code={example.code}
                  lang={highlighting[example.language]}
                  title={`${languageLabels[example.language]} · ${headerFormLabels[example.form]}`}
                  example={{ route: route.name, language: example.language, form: example.form, variant }}
                />
              ))}
          </>
        ),
      }))}
    />
  );
}
