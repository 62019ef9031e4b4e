import { randomBytes, randomInt } from "node:crypto";
import { defaultPasswordRequirements, type PasswordRequirements } from "../sdk/schemas";

const LOWER = "abcdefghijklmnopqrstuvwxyz";
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS = "0123456789";

const pick = (set: string) => set[randomInt(set.length)]!;

/**
 * A password meeting `passwordRequirements`: the required count of each class, the rest drawn
 * from letters and digits (and symbols when symbols are required), shuffled.
 * Returns an error text when the requirements cannot be met (no allowed symbols).
 */
export function generatePassword(req: PasswordRequirements = defaultPasswordRequirements): string | { error: string } {
  const symbols = req.allowedSymbols ?? defaultPasswordRequirements.allowedSymbols ?? "";
  if (req.required.symbols > 0 && symbols.length === 0) {
    return { error: "symbols are required but allowedSymbols is empty" };
  }
  const chars: string[] = [];
  const add = (set: string, n: number) => {
    for (let i = 0; i < n; i++) chars.push(pick(set));
  };
  add(LOWER, req.required.lowercase);
  add(UPPER, req.required.uppercase);
  add(DIGITS, req.required.digits);
  add(symbols, req.required.symbols);
  add(LOWER + UPPER + DIGITS + (req.required.symbols > 0 ? symbols : ""), req.length - chars.length);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join("");
}

/** An opaque secret for values the emulator makes up (client secrets, platform-managed passwords). */
export const randomSecret = (bytes = 24) => randomBytes(bytes).toString("base64url");

/** `n` lowercase letters and digits: the random parts of the names the service makes (`alphaNumericNanoId`, slugified). */
export function randomLowerAlphanumeric(n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += pick(LOWER + DIGITS);
  return s;
}
