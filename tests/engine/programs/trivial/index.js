// A dynamic resource whose provider keeps one file per resource in a directory given by config.
// The test reads that directory to see what the engine really did.
const pulumi = require("@pulumi/pulumi");

const ledgerProvider = {
  async create(inputs) {
    const fs = require("fs");
    const path = require("path");
    const id = `note-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
    // `holdMs`: a create that takes that long, as a slow service would (tests/engine/trivial.test.ts
    // cancels it). The `<id>.holding` file says the create has started.
    if (inputs.holdMs) {
      fs.writeFileSync(path.join(inputs.dir, `${id}.holding`), String(process.pid));
      await new Promise((resolve) => setTimeout(resolve, Number(inputs.holdMs)));
    }
    fs.writeFileSync(path.join(inputs.dir, id), inputs.text);
    return { id, outs: inputs };
  },
  async diff(_id, olds, news) {
    const replaces = olds.dir !== news.dir ? ["dir"] : [];
    return { changes: olds.text !== news.text || replaces.length > 0, replaces };
  },
  async update(id, _olds, news) {
    require("fs").writeFileSync(require("path").join(news.dir, id), news.text);
    return { outs: news };
  },
  async delete(id, props) {
    require("fs").rmSync(require("path").join(props.dir, id), { force: true });
  },
};

class Note extends pulumi.dynamic.Resource {
  constructor(name, args, opts) {
    super(ledgerProvider, name, args, opts);
  }
}

const config = new pulumi.Config();
const holdMs = config.get("holdMs");
const note = new Note("note", {
  dir: config.require("dir"),
  text: config.require("text"),
  ...(holdMs ? { holdMs } : {}),
});
exports.noteId = note.id;
exports.text = note.text;
// How the language host started this program: Pulumi.yaml's runtime options say no TypeScript
// and a Node flag (tests/engine/trivial.test.ts; scripts/engine/language-host-options.go).
exports.runtime = { typescript: process.env.PULUMI_NODEJS_TYPESCRIPT === "true", execArgv: process.execArgv };
// `trivial:secretText`: a secret output (tests/engine/trivial.test.ts reads it back).
const secretText = config.getSecret("secretText");
if (secretText) exports.secretText = secretText;
