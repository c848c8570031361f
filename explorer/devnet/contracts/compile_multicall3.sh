#!/bin/sh
# Compile the published Multicall3 into Multicall3.json with solc-js (`solcjs --standard-json`).
#
# Multicall3.sol is src/Multicall3.sol of github.com/mds1/multicall (commit 19da7a56668b, MIT,
# see Multicall3.LICENSE), unchanged. It is compiled as it was deployed at
# 0xcA11bde05977b3631167028862bE2a173976CA11 on every chain: solc 0.8.12 (its pragma), the
# optimizer at 10,000,000 runs (its foundry.toml), EVM version london. The creation code is then
# byte for byte the one in the project's pre-signed deployment transaction (its README).
# EVM version berlin, the other contracts' one, cannot compile it: getBasefee() reads
# block.basefee, which solc refuses before london. The devnet's EVM is Berlin plus BASEFEE
# (rskj 9 has it since RSKIP412), so every function of it runs.
#
# Usage: sh explorer/devnet/contracts/compile_multicall3.sh   (needs node and npm)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
npm install --prefix "$scratch" --no-save --no-audit --no-fund solc@0.8.12 > /dev/null
cat > "$scratch/input.json" << 'EOF'
{
  "language": "Solidity",
  "sources": { "Multicall3.sol": { "urls": ["Multicall3.sol"] } },
  "settings": {
    "evmVersion": "london",
    "optimizer": { "enabled": true, "runs": 10000000 },
    "outputSelection": { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } }
  }
}
EOF
# solcjs prints a note about SMT solvers before the JSON: keep from the first `{` on.
"$scratch/node_modules/.bin/solcjs" --standard-json --base-path "$here" < "$scratch/input.json" \
    | sed -n '/^{/,$p' > "$scratch/output.json"
SOLC_VERSION=$("$scratch/node_modules/.bin/solcjs" --version) node - "$scratch/output.json" \
    "$here/Multicall3.json" << 'EOF'
const fs = require("fs");
const [output, target] = process.argv.slice(2);
const result = JSON.parse(fs.readFileSync(output, "utf8"));
const errors = (result.errors || []).filter((e) => e.severity === "error");
if (errors.length || !result.contracts) {
  for (const e of errors) console.error(e.formattedMessage);
  process.exit(1);
}
const c = result.contracts["Multicall3.sol"].Multicall3;
const artifact = {
  compiler: "solc-js " + process.env.SOLC_VERSION,
  evmVersion: "london",
  optimizerRuns: 10000000,
  source: "github.com/mds1/multicall src/Multicall3.sol at 19da7a56668b7b284901ef0551edb23905c6cd53",
  contracts: {
    Multicall3: {
      abi: c.abi,
      bytecode: "0x" + c.evm.bytecode.object,
      deployedBytecode: "0x" + c.evm.deployedBytecode.object,
    },
  },
};
fs.writeFileSync(target, JSON.stringify(artifact, null, 1) + "\n");
console.log("wrote", target);
EOF
