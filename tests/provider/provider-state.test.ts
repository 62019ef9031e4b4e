import { decodeState, encodeState } from "../../provider/state";

// The provider's record in a resource's outputs (provider/state.ts): the declared args are stored as
// the shorter of the list and the reported args it leaves out, and read back the same either way.

const reported = ["name", "description", "projectId", "connectionId", "destinationConfig", "isAutoSyncEnabled"];
const roundTrip = (declared: string[] | undefined) => {
  const outs = JSON.parse(JSON.stringify(encodeState({ declared }, reported)));
  return { outs, declared: decodeState(outs, reported).declared };
};

test("most args declared: stored as the few left out, read back as the list", () => {
  const { outs, declared } = roundTrip(["name", "projectId", "connectionId", "destinationConfig"]);
  expect(outs).toEqual({ undeclared: ["description", "isAutoSyncEnabled"] });
  expect(declared).toEqual(["name", "projectId", "connectionId", "destinationConfig"]);
});

test("few args declared: stored as the list", () => {
  const { outs, declared } = roundTrip(["name", "projectId"]);
  expect(outs).toEqual({ declared: ["name", "projectId"] });
  expect(declared).toEqual(["name", "projectId"]);
});

test("every arg declared, or state from older releases: no list, which means all of them", () => {
  expect(roundTrip(undefined)).toEqual({ outs: {}, declared: undefined });
  expect(roundTrip(reported)).toEqual({ outs: {}, declared: undefined });
  // An older release's list is read as it was written.
  expect(decodeState({ declared: ["name"] }, reported).declared).toEqual(["name"]);
});
