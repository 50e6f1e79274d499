import { ApiError } from "./api-error";
import type { ListQuery } from "./schemas";

/** One page of a list ordered by id: the items after `after`, at most `limit`, and whether more follow. */
export function paginate<T extends { id: string }>(items: readonly T[], query: ListQuery) {
  let start = 0;
  if (query.after !== undefined) {
    const index = items.findIndex((item) => item.id === query.after);
    if (index < 0)
      throw new ApiError("invalid_request", {
        message: "after must be the id of an item in this list.",
        param: "after",
      });
    start = index + 1;
  }
  const data = items.slice(start, start + query.limit);
  return { data, has_more: start + query.limit < items.length };
}
