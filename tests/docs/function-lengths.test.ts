import * as path from "node:path";
import { FUNCTION_LINE_LIMIT, functionLengths, productFunctionLengths } from "../../scripts/function-lengths";

/**
 * No function in provider/, sdk/ or emulator/ runs over about 80 lines, data tables aside
 * (docs/ARCHITECTURE.md, Conventions): a long closure is split into named steps before it lands.
 */

const repoRoot = path.resolve(__dirname, "..", "..");

describe("function lengths", () => {
  test(`no function in ${["provider", "sdk", "emulator"].join(", ")} runs over ${FUNCTION_LINE_LIMIT} lines`, () => {
    const all = productFunctionLengths(repoRoot);
    // The walk reads the folders: the scaffold and the routes are among what it measured.
    expect(all.map((f) => f.name)).toEqual(expect.arrayContaining(["dynamicProvider", "route", "buildServer"]));
    const over = all.filter((f) => f.lines > FUNCTION_LINE_LIMIT).map((f) => `${f.at} ${f.name}: ${f.lines} lines`);
    expect(over).toEqual([]);
  });

  describe("the measure", () => {
    const lines = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i)).join("\n");

    test("counts a function's lines from its first to its last, named as the code names it", () => {
      const text = `function first() {\n${lines(5, (i) => `  const a${i} = ${i};`)}\n}\nconst second = () => 1;\n`;
      expect(functionLengths("x.ts", text)).toEqual([
        { at: "x.ts:1", name: "first", lines: 7 },
        { at: "x.ts:8", name: "second", lines: 1 },
      ]);
    });

    test("counts a data table as one line, and a table holding functions in full", () => {
      const table = `function rows() {\n  return [\n${lines(50, (i) => `    { name: "r${i}", n: ${i} },`)}\n  ];\n}\n`;
      expect(functionLengths("t.ts", table)[0]).toMatchObject({ name: "rows", lines: 3 });
      const methods = `function provider() {\n  return {\n${lines(50, (i) => `    m${i}: () => ${i},`)}\n  };\n}\n`;
      expect(functionLengths("m.ts", methods)[0]).toMatchObject({ name: "provider", lines: 54 });
    });

    test("counts a closure in the function holding it, and on its own", () => {
      const text = `export function outer() {\n  const inner = () => {\n${lines(90, (i) => `    f(${i});`)}\n  };\n  return inner;\n}\n`;
      expect(functionLengths("c.ts", text).map((f) => [f.name, f.lines])).toEqual([
        ["outer", 95],
        ["inner", 92],
      ]);
    });
  });
});
