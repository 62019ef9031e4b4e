/** Resolves to undefined when the service says 404: reads use it to report "gone". */
export function orUndefinedOn404<T>(p: Promise<T>): Promise<T | undefined> {
  return p.catch((e: unknown) => {
    if (typeof e === "object" && e !== null && (e as { status?: number }).status === 404) return undefined;
    throw e;
  });
}
