#!/usr/bin/env node
/**
 * `secretops`: the package's command (package.json `bin`). One file per command; exit codes a
 * pipeline can branch on: 0 success, 1 a failure the command found (invalid resources, missing
 * events, the service failing), 2 bad usage (unknown flags, bad filters, missing files).
 */
import { Command, CommanderError } from "commander";
import { auditCommand } from "./audit";
import { checkCommand } from "./check";
import { EXIT, UsageError } from "./common";
import { emulatorCommand } from "./emulator";
import { importCommand } from "./import";
import { verifyCommand } from "./verify";

export function program(): Command {
  const version = (require("../../package.json") as { version: string }).version;
  const root = new Command("secretops")
    .description(
      "Pulumi resources for secret syncs, rotations, certificate profiles and app-connection settings: tools",
    )
    .version(version)
    .showHelpAfterError("(add --help for usage)")
    .addHelpText(
      "after",
      "\nExit codes: 0 success, 1 a failure found (invalid resources, missing events, the service failing), 2 bad usage.",
    );
  for (const cmd of [emulatorCommand(), checkCommand(), auditCommand(), verifyCommand(), importCommand()]) {
    root.addCommand(cmd.showHelpAfterError("(add --help for usage)"));
  }
  // Commander exits on its own errors; exitOverride lets them map onto the usage code instead.
  const override = (c: Command) => {
    c.exitOverride();
    c.commands.forEach(override);
  };
  override(root);
  return root;
}

export async function main(argv: readonly string[]): Promise<number> {
  try {
    await program().parseAsync(argv, { from: "user" });
    return EXIT.ok;
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version "fail" with exit code 0; a bare `secretops` shows help with 1.
      if (e.exitCode === 0 || e.code === "commander.helpDisplayed" || e.code === "commander.version") return EXIT.ok;
      return EXIT.usage;
    }
    if (e instanceof UsageError) {
      process.stderr.write(`secretops: ${e.message}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`secretops: ${(e as Error).message ?? String(e)}\n`);
    return EXIT.failed;
  }
}

if (require.main === module) {
  // `secretops audit | head`: a reader that stops early is not an error.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(EXIT.ok);
    throw e;
  });
  void main(process.argv.slice(2)).then((code) => {
    // The emulator command resolves only once it has stopped; others leave sockets (keep-alive) open.
    // Exit once what was written is flushed: writes to a pipe are asynchronous.
    process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
  });
}
