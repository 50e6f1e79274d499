import { POLICY_DESCRIPTIONS, PRODUCTION_KEY_RULES, PRODUCTION_KEY_RULE_TEXT } from "@/lib/teams/policies";

/**
 * A team's policies, drawn from the policies table (lib/teams/policies.ts) that the server's checks read, so the docs
 * cannot say otherwise. One block per policy rather than a table: the effect is a paragraph, and a phone is narrow.
 */
export function PolicyTable() {
  return (
    <dl className="flex flex-col gap-4" data-testid="policy-table">
      {POLICY_DESCRIPTIONS.map((policy) => (
        <div key={policy.name} className="rounded-md border border-zinc-200 p-4 dark:border-zinc-800">
          <dt className="font-semibold">{policy.name}</dt>
          <dd className="mt-2 flex flex-col gap-1 text-sm">
            <span>
              <span className="font-medium">Choices:</span> {policy.options}.{" "}
              <span className="font-medium">Default:</span> {policy.default}.
            </span>
            <span>{policy.effect}</span>
            {policy.name === "Production keys" && (
              <ul className="mt-1 list-disc pl-5">
                {PRODUCTION_KEY_RULES.map((rule) => (
                  <li key={rule}>
                    <strong>{PRODUCTION_KEY_RULE_TEXT[rule].label}</strong>: {PRODUCTION_KEY_RULE_TEXT[rule].sentence}
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
