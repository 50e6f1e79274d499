import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { CodeBlock } from "@/components/docs/code-block";
import { DocsArticle, type DocsSectionContent } from "@/components/docs/docs-article";
import { FieldTable } from "@/components/docs/field-table";
import { RouteErrors } from "@/components/docs/route-errors";
import { RouteExamples } from "@/components/docs/route-examples";
import { RouteScope } from "@/components/docs/route-scope";
import { Badge } from "@/components/ui/badge";
import { clientSnippets } from "@/lib/docs/client-libraries";
import { exampleInputs, streamVariants } from "@/lib/docs/example-inputs";
import { displayPath, routeHref, routeSlug } from "@/lib/docs/nav";
import { bodyFields, formFields, queryFields } from "@/lib/docs/request-fields";
import { responseExample } from "@/lib/docs/response-examples";
import { docsBaseUrl } from "@/lib/docs/base-url";
import {
  pathParamDescriptions,
  pathParamNames,
  publicRoutes,
  versionOf,
  type PublicRoute,
  type RouteName,
} from "@/lib/public-api/routes";

// One page per registry route, all built at build time; any other slug is a 404.
export const dynamicParams = false;

export function generateStaticParams() {
  return publicRoutes.map((route) => ({ route: routeSlug(route) }));
}

function findRoute(slug: string): PublicRoute | undefined {
  return publicRoutes.find((route) => routeSlug(route) === slug);
}

export async function generateMetadata({ params }: { params: Promise<{ route: string }> }): Promise<Metadata> {
  const route = findRoute((await params).route);
  return { title: route ? `${route.method} ${displayPath(route)}` : "Route" };
}

const STREAM_NOTES: Partial<Record<RouteName, string>> = {
  create_chat_completion:
    'With "stream": true the answer is server-sent events: one "data:" line per chunk (a chat.completion.chunk object), then "data: [DONE]". Add "stream_options": {"include_usage": true} for a last chunk with the token counts.',
  create_message:
    'With "stream": true the answer is server-sent events with named events: message_start, content_block_start, one content_block_delta per piece of text, content_block_stop, message_delta (with stop_reason) and message_stop.',
  stream_generate_content:
    'With ?alt=sse (what Google\'s client libraries send) the answer is server-sent events, one "data:" line per GenerateContentResponse; without it, one JSON array whose elements arrive one at a time.',
};

export default async function RoutePage({ params }: { params: Promise<{ route: string }> }) {
  const route = findRoute((await params).route);
  if (!route) notFound();
  const baseUrl = docsBaseUrl();
  const name = route.name as RouteName;
  const input = exampleInputs[name];
  const response = await responseExample(route);
  // The model routes that stream on request show a second set of examples; a streaming route's own examples stream.
  const stream = streamVariants[name];
  const snippets = clientSnippets(name, baseUrl);
  const creates = route.method === "POST" && route.path.endsWith("/generations");

  const sections: DocsSectionContent[] = [
    {
      id: "request",
      title: "Request",
      content: (
        <>
          <CodeBlock code={`${route.method} ${baseUrl}${displayPath(route)}`} lang="text" title="Method and URL" />
          {pathParamNames(route.path).length > 0 && (
            <FieldTable
              caption="Path parameters"
              fields={pathParamNames(route.path).map((param) => ({
                name: param,
                type: "string",
                required: true,
                notes: pathParamDescriptions[param] ?? "",
              }))}
            />
          )}
          {queryFields(route).length > 0 && <FieldTable caption="Query parameters" fields={queryFields(route)} />}
          {route.streams && (
            <p>
              Query parameter <code>alt</code>: <code>sse</code> for server-sent events; without it, a streamed JSON
              array.
            </p>
          )}
          {route.body === "json" && (
            <>
              <p>
                Body: JSON, <code>Content-Type: application/json</code>, within the{" "}
                <Link href="/docs/limits-and-versioning#body-limits">body limit</Link>.
              </p>
              <FieldTable caption="Body fields" fields={bodyFields(route)} />
            </>
          )}
          {route.body === "multipart" && (
            <>
              <p>
                Body: <code>multipart/form-data</code>, within the{" "}
                <Link href="/docs/limits-and-versioning#body-limits">upload limit</Link>.
              </p>
              <FieldTable caption="Form fields" fields={formFields(route)} />
            </>
          )}
          {creates && (
            <p>
              Optional header <code>Idempotency-Key</code> (1 to 255 visible ASCII characters, scoped to the API key
              that sends it): a retry with the same API key, Idempotency-Key and body within 24 hours answers the first
              call&apos;s answer again, as it was (the generation as created; read its progress with GET), with{" "}
              <code>Idempotent-Replayed: true</code>; the same key with another body is{" "}
              <Link href="/docs/errors#idempotency_key_mismatch">422</Link>. It is stored, so it must not hold your API
              key: one that does is <Link href="/docs/errors#api_key_misplaced">400 api_key_misplaced</Link>.
            </p>
          )}
        </>
      ),
    },
    {
      id: "examples",
      title: "Examples",
      content: (
        <>
          <p>
            Each example reads the key from the <code>KEYPORT_API_KEY</code> environment variable and is shown with both
            header forms. Save a Node example as a <code>.mjs</code> file (it uses <code>import</code> and top-level{" "}
            <code>await</code>) and run it with Node 20 or later.
            {route.path.includes("[id]") && (
              <>
                {" "}
                They read the generation&apos;s id from <code>GENERATION_ID</code>: export the <code>id</code> the
                create call answered.
              </>
            )}
            {input.file && (
              <>
                {" "}
                Run it in a folder with a <code>notes.txt</code> file.
              </>
            )}
          </p>
          <RouteExamples baseUrl={baseUrl} route={route} input={input} />
        </>
      ),
    },
    {
      id: "response",
      title: "Response",
      content: (
        <>
          <p>
            <Badge tone="success">{response.status}</Badge> <code>{response.contentType}</code>
          </p>
          <CodeBlock
            code={typeof response.body === "string" ? response.body : JSON.stringify(response.body, null, 2)}
            lang={typeof response.body === "string" ? "text" : "json"}
            title={`Example response (${response.status})`}
            example={{ route: route.name, language: "response" }}
          />
        </>
      ),
    },
  ];
  if (stream || route.streams) {
    sections.push({
      id: "streaming",
      title: "Reading the stream",
      content: (
        <>
          <p>{STREAM_NOTES[name]}</p>
          <p>
            Events are produced as you read them: read the body incrementally (curl&apos;s <code>-N</code>, a streamed{" "}
            <code>fetch</code> body, <code>requests</code> with <code>stream=True</code>). Close the connection (abort
            the request) to stop the generation.
          </p>
          {stream ? (
            <RouteExamples baseUrl={baseUrl} route={route} input={stream} variant="stream" />
          ) : (
            <p>
              The <Link href="#examples">examples above</Link> read the stream this way.
            </p>
          )}
        </>
      ),
    });
  }
  if (snippets.length > 0) {
    sections.push({
      id: "client-libraries",
      title: "Official client libraries",
      content: (
        <>
          <p>Point the official library at Keyport: only the base URL and the key change.</p>
          {snippets.map((snippet) => (
            <CodeBlock
              key={snippet.library}
              code={snippet.code}
              lang={snippet.language === "node" ? "javascript" : "python"}
              title={snippet.library}
              example={{ route: route.name, language: `${snippet.language}-sdk` }}
            />
          ))}
        </>
      ),
    });
  }
  sections.push({
    id: "errors",
    title: "Errors",
    content: <RouteErrors route={route} />,
  });

  return (
    <DocsArticle
      href={routeHref(route)}
      title={`${route.method} ${displayPath(route)}`}
      lead={
        <>
          <p>
            {route.summary}{" "}
            {versionOf(route) === "v1beta" && (
              <Badge tone="warning">
                <Link href="/docs/limits-and-versioning#versions" className="text-inherit">
                  v1beta
                </Link>
              </Badge>
            )}
          </p>
          <RouteScope route={route} />
        </>
      }
      sections={sections}
    />
  );
}
