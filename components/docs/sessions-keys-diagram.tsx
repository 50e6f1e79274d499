/** Two callers, two credentials, two halves of the site; drawn in the text colour so it suits both themes. */
export function SessionsKeysDiagram({ routeCount }: { routeCount: number }) {
  return (
    <figure className="my-6">
      <svg
        viewBox="0 0 640 260"
        role="img"
        aria-labelledby="sessions-keys-title sessions-keys-desc"
        className="h-auto w-full max-w-2xl text-zinc-800 dark:text-zinc-200"
      >
        <title id="sessions-keys-title">Sessions reach the portal, keys reach the API</title>
        <desc id="sessions-keys-desc">
          A person&apos;s browser with a session cookie reaches the portal pages and is refused by the public API
          without a key. A server with an API key reaches the {routeCount} public API routes and is refused with 403 on
          the portal.
        </desc>
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto">
            <path d="M0,0 L10,5 L0,10 z" fill="currentColor" />
          </marker>
        </defs>
        <g fill="none" stroke="currentColor" strokeWidth="2">
          <rect x="10" y="30" width="170" height="70" rx="8" />
          <rect x="10" y="160" width="170" height="70" rx="8" />
          <rect x="450" y="30" width="180" height="70" rx="8" />
          <rect x="450" y="160" width="180" height="70" rx="8" />
          <line x1="180" y1="65" x2="448" y2="65" markerEnd="url(#arrow)" />
          <line x1="180" y1="195" x2="448" y2="195" markerEnd="url(#arrow)" />
          <line x1="180" y1="85" x2="448" y2="180" strokeDasharray="6 5" markerEnd="url(#arrow)" />
          <line x1="180" y1="175" x2="448" y2="80" strokeDasharray="6 5" markerEnd="url(#arrow)" />
        </g>
        <g fill="currentColor" fontSize="15" textAnchor="middle">
          <text x="95" y="60">
            Your browser
          </text>
          <text x="95" y="82" fontSize="13">
            session cookie
          </text>
          <text x="95" y="190">
            Your server
          </text>
          <text x="95" y="212" fontSize="13">
            API key (sk_…)
          </text>
          <text x="540" y="60">
            Portal
          </text>
          <text x="540" y="82" fontSize="13">
            dashboard, account
          </text>
          <text x="540" y="190">
            Public API
          </text>
          <text x="540" y="212" fontSize="13">{`${routeCount} routes, /api/v1*`}</text>
          <text x="315" y="55" fontSize="13">
            allowed
          </text>
          <text x="315" y="218" fontSize="13">
            allowed
          </text>
        </g>
        {/* Each refusal sits on its own dashed line, with a halo in the page's colour so the line does not cross the text. */}
        <g
          fill="currentColor"
          fontSize="13"
          textAnchor="middle"
          strokeWidth="6"
          paintOrder="stroke"
          className="stroke-white dark:stroke-zinc-950"
        >
          <text x="250" y="114">
            401: no key
          </text>
          <text x="250" y="156">
            403: key refused
          </text>
        </g>
      </svg>
      <figcaption className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
        Solid arrows are allowed; dashed arrows are refused.
      </figcaption>
    </figure>
  );
}
