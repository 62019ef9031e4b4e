import { Command } from "commander";
import { type EmulatorCliOptions, addEmulatorOptions, startFromOptions, untilStopped } from "../emulator/cli";

/** `secretops emulator`: the options and start-up lines of emulator/cli.ts; runs until stopped (`untilStopped`). */
export function emulatorCommand(): Command {
  return addEmulatorOptions(
    new Command("emulator").description(
      "Run the local emulator of the service API on 127.0.0.1 and print its URL and token (--json: one JSON line)",
    ),
  ).action(async (o: EmulatorCliOptions) => {
    const emulator = await startFromOptions(o, (line) => process.stdout.write(`${line}\n`));
    await untilStopped(emulator);
  });
}
