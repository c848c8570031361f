// Recompile the devnet's contracts into compiled.json with solc-js (EVM version berlin).
// Multicall3.sol, the published Multicall3, is compiled apart as it was deployed, by
// compile_multicall3.sh into Multicall3.json.
// Usage: npm install solc@0.8.26 in a scratch dir, then
//   NODE_PATH=<scratch>/node_modules node explorer/devnet/contracts/compile.cjs [FOLDER]
// FOLDER (default: this one) holds the .sol files; its compiled.json is written (the issue-28
// stories live in inside/: NODE_PATH=… node explorer/devnet/contracts/compile.cjs inside).
const fs = require("fs");
const path = require("path");
const solc = require("solc");

const here = path.resolve(__dirname, process.argv[2] || ".");
const sources = {};
const apart = new Set(["Multicall3.sol"]);
for (const file of fs.readdirSync(here).filter((f) => f.endsWith(".sol") && !apart.has(f)).sort()) {
  sources[file] = { content: fs.readFileSync(path.join(here, file), "utf8") };
}
const input = {
  language: "Solidity",
  sources,
  settings: {
    evmVersion: "berlin",
    optimizer: { enabled: true, runs: 200 },
    outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (output.errors || []).filter((e) => e.severity === "error");
if (errors.length) {
  for (const e of errors) console.error(e.formattedMessage);
  process.exit(1);
}
const contracts = {};
for (const file of Object.keys(output.contracts).sort()) {
  for (const [name, c] of Object.entries(output.contracts[file])) {
    contracts[name] = {
      abi: c.abi,
      bytecode: "0x" + c.evm.bytecode.object,
      deployedBytecode: "0x" + c.evm.deployedBytecode.object,
    };
  }
}
const result = { compiler: "solc-js " + solc.version(), evmVersion: "berlin", contracts };
fs.writeFileSync(path.join(here, "compiled.json"), JSON.stringify(result, null, 1) + "\n");
console.log("wrote compiled.json:", Object.keys(contracts).join(", "));
