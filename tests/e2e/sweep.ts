// The sweeps: one check (axe, no sideways scroll, the script budget) over every page, at both widths and in both
// themes. They are the end-to-end step's longest tests (about 200 of its 790 test-seconds on 2 cores), and few commits
// change what they look at, so `npm test` leaves them to CI, which runs them on every commit (.ci/run;
// playwright.config.ts gives them a project of their own, `npm run test:sweeps`). The flows that reach a state
// the sweeps do not (a dialog open, a message after an action) scan it themselves, in `npm test`.
export const SWEEP = { tag: "@sweep" } as const;
