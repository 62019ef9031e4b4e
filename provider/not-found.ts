/** True for the service's 404: the object is gone. */
export function isNotFound(e: unknown): boolean {
  return typeof e === "object" && e !== null && "status" in e && e.status === 404;
}

/** Resolves to undefined when the service says 404: reads use it to report "gone". */
export function orUndefinedOn404<T>(p: Promise<T>): Promise<T | undefined> {
  return p.catch((e: unknown) => {
    if (isNotFound(e)) return undefined;
    throw e;
  });
}
