// Write bench/contract-24k.json: a contract of 206 functions (24,350 bytes of runtime code, near
// the 24,576-byte limit), compiled by solc-js 0.8.26 (berlin), for bench/contract.py's recovery time.
// Usage: npm install solc@0.8.26 in a scratch dir, then
//   NODE_PATH=<scratch>/node_modules node bench/contract_24k.cjs
const solc = require("solc");
const types = ["uint256", "address", "bool", "bytes32", "string calldata", "uint8", "int128", "bytes calldata", "uint256[] calldata", "address[] calldata"];
function source(n) {
  let body = "";
  for (let i = 0; i < n; i++) {
    const a = types[i % types.length], b = types[(i * 7 + 3) % types.length];
    const view = i % 3 === 0 ? " view" : "";
    const ret = i % 3 === 0 ? " returns (uint256)" : "";
    const stmt = i % 3 === 0 ? `return slots[${i}] + ${i};` : `slots[${i}] = ${i} + block.number; emit Touched(${i}, msg.sender);`;
    body += `    function f${i}_${a.split(" ")[0].replace(/\W/g, "")}(${a} a, ${b} b) external${view}${ret} { a; b; ${stmt} }\n`;
  }
  return `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.26;\n/// @title A contract near Rootstock's 24 KB code limit, for the recovery benchmark\ncontract Big {\n    mapping(uint256 => uint256) private slots;\n    event Touched(uint256 indexed which, address by);\n${body}}\n`;
}
const n = 206;
const input = { language: "Solidity", sources: { "Big.sol": { content: source(n) } }, settings: { evmVersion: "berlin", optimizer: { enabled: true, runs: 200 }, outputSelection: { "*": { "*": ["abi", "evm.deployedBytecode.object"] } } } };
const out = JSON.parse(solc.compile(JSON.stringify(input)));
for (const e of out.errors || []) if (e.severity === "error") { console.error(e.formattedMessage); process.exit(1); }
const c = out.contracts["Big.sol"].Big;
console.log(n, c.evm.deployedBytecode.object.length / 2);
require("fs").writeFileSync(require("path").join(__dirname, "contract-24k.json"), JSON.stringify({ source: source(n), abi: c.abi, deployedBytecode: "0x" + c.evm.deployedBytecode.object }) + "\n");
