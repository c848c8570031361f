// Compile the devnet's proxies (Proxies.sol) and the Notary into compiled.json with solc-js
// (EVM version berlin), and write the Notary's only source release: a Hardhat project's
// artifacts under tests/fixtures/hardhat-notary/, the same build as a Foundry out/ folder
// (tests/fixtures/foundry-notary/) and as a Sourcify metadata.json
// (tests/fixtures/sourcify-notary/). Usage: npm install solc@0.8.26 in a scratch dir, then
//   NODE_PATH=<scratch>/node_modules node explorer/devnet/contracts/proxies/compile.cjs
const crypto = require("crypto");
const fs = require("fs");
const path = require("path");
const solc = require("solc");

const here = __dirname;
const repo = path.resolve(here, "../../../..");
const fixtures = path.join(repo, "tests/fixtures");
const notarySource = "contracts/Notary.sol";
const selection = [
  "abi", "metadata", "devdoc", "userdoc", "evm.bytecode.object", "evm.bytecode.sourceMap",
  "evm.bytecode.linkReferences", "evm.deployedBytecode.object",
  "evm.deployedBytecode.sourceMap", "evm.deployedBytecode.linkReferences",
  "evm.deployedBytecode.immutableReferences", "evm.methodIdentifiers",
];
const input = {
  language: "Solidity",
  sources: {
    "Proxies.sol": { content: fs.readFileSync(path.join(here, "Proxies.sol"), "utf8") },
    [notarySource]: {
      content: fs.readFileSync(path.join(fixtures, "hardhat-notary", notarySource), "utf8"),
    },
  },
  settings: {
    evmVersion: "berlin",
    optimizer: { enabled: true, runs: 200 },
    outputSelection: { "*": { "*": selection } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (output.errors || []).filter((e) => e.severity === "error");
if (errors.length) {
  for (const e of errors) console.error(e.formattedMessage);
  process.exit(1);
}

function write(file, value) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 1) + "\n");
}

const contracts = {};
for (const file of Object.keys(output.contracts).sort()) {
  for (const [name, c] of Object.entries(output.contracts[file])) {
    if (!c.evm.bytecode.object) continue; // an interface or abstract contract
    contracts[name] = {
      abi: c.abi,
      bytecode: "0x" + c.evm.bytecode.object,
      deployedBytecode: "0x" + c.evm.deployedBytecode.object,
    };
  }
}
const longVersion = solc.version().replace(".Emscripten.clang", "");
write(path.join(here, "compiled.json"), {
  compiler: "solc-js " + solc.version(), evmVersion: "berlin", contracts,
});

// The Hardhat project: artifacts/<source>/<name>.json, its .dbg.json and the build info.
const notary = output.contracts[notarySource].Notary;
const notaryOutput = { contracts: { [notarySource]: { Notary: notary } }, sources: {} };
notaryOutput.sources[notarySource] = output.sources[notarySource];
const notaryInput = { ...input, sources: { [notarySource]: input.sources[notarySource] } };
const buildId = crypto.createHash("md5").update(JSON.stringify(notaryInput)).digest("hex");
const hardhat = path.join(fixtures, "hardhat-notary", "artifacts");
write(path.join(hardhat, "build-info", buildId + ".json"), {
  _format: "hh-sol-build-info-1", id: buildId, solcVersion: longVersion.split("+")[0],
  solcLongVersion: longVersion, input: notaryInput, output: notaryOutput,
});
const artifactDir = path.join(hardhat, notarySource);
write(path.join(artifactDir, "Notary.json"), {
  _format: "hh-sol-artifact-1", contractName: "Notary", sourceName: notarySource, abi: notary.abi,
  bytecode: "0x" + notary.evm.bytecode.object,
  deployedBytecode: "0x" + notary.evm.deployedBytecode.object,
  linkReferences: {}, deployedLinkReferences: {},
});
write(path.join(artifactDir, "Notary.dbg.json"), {
  _format: "hh-sol-dbg-1", buildInfo: "../../build-info/" + buildId + ".json",
});

// The same build as Foundry writes it: out/<file>/<name>.json with the immutables inside.
write(path.join(fixtures, "foundry-notary", "out", "Notary.sol", "Notary.json"), {
  abi: notary.abi,
  bytecode: { object: "0x" + notary.evm.bytecode.object, linkReferences: {} },
  deployedBytecode: {
    object: "0x" + notary.evm.deployedBytecode.object, linkReferences: {},
    immutableReferences: notary.evm.deployedBytecode.immutableReferences,
  },
  methodIdentifiers: notary.evm.methodIdentifiers,
  rawMetadata: notary.metadata,
  metadata: JSON.parse(notary.metadata),
  id: 0,
});

// Sourcify's form: the metadata exactly as hashed into the code (its source is the Hardhat
// project's; the tests lay it out under sources/ as Sourcify does).
const sourcify = path.join(fixtures, "sourcify-notary");
fs.mkdirSync(sourcify, { recursive: true });
fs.writeFileSync(path.join(sourcify, "metadata.json"), notary.metadata);
console.log("wrote compiled.json:", Object.keys(contracts).join(", "), "and the Notary's releases");
