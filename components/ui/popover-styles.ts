// The look shared by the floating lists (the row menu and the select's options), said once.
export const popoverPanelClasses =
  "z-50 rounded-md border border-zinc-200 bg-white text-zinc-900 shadow-lg dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100";
export const popoverItemClasses =
  "flex min-h-10 cursor-pointer items-center rounded px-3 text-sm outline-none select-none data-highlighted:bg-zinc-100 dark:data-highlighted:bg-zinc-800";
