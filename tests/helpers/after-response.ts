// Actions run outside a Next request in the integration tests, where Next's
// after() throws. A test file that reaches lib/after-response mocks it with
// this queue; the work waits there, as it waits for the response in Next,
// until the test settles it:
//
//   vi.mock("@/lib/after-response", async () => (await import("../helpers/after-response")).afterResponseMock);

export const afterWork: (() => Promise<unknown>)[] = [];

export const afterResponseMock = {
  afterResponse: (_task: string, work: () => Promise<unknown>) => {
    afterWork.push(work);
  },
};

/** Runs everything the actions so far left for after their answers, in order. */
export async function settleAfterWork(): Promise<void> {
  for (let work = afterWork.shift(); work; work = afterWork.shift()) await work();
}
