// Drive the devnet with ethers 6 as an application would, and print what ethers saw as JSON.
// Run by tests/clients/test_ethers.py: node ethers_client.mjs '<JSON input>'.
// Input: url, chainId, key (a funded private key), seed facts (token, blocks, hashes), the
// DevToken and Reverter artifacts, and `filters` (true on the rskj profile: contract.on()).
// Output: one JSON object of facts; the Python test compares them with the node's raw answers.
import { Contract, ContractFactory, JsonRpcProvider, Wallet, id } from "ethers";

const input = JSON.parse(process.argv[2]);
const facts = {};
// cacheTimeout -1: ethers would answer a repeated request within 250 ms from its cache, and
// with instant mining the next nonce changes faster than that (docs/local-node.md says so).
const provider = new JsonRpcProvider(input.url, undefined, { pollingInterval: 100, cacheTimeout: -1 });
const wallet = new Wallet(input.key, provider);
const big = (value) => (value === null || value === undefined ? null : value.toString());

function blockFacts(block, prefetched = false) {
  return {
    number: block.number,
    hash: block.hash,
    parentHash: block.parentHash,
    timestamp: block.timestamp,
    miner: block.miner.toLowerCase(),
    gasLimit: big(block.gasLimit),
    gasUsed: big(block.gasUsed),
    transactions: [...block.transactions],
    prefetched: prefetched ? block.prefetchedTransactions.map((tx) => tx.hash) : null,
  };
}

function failure(error) {
  return { code: error.code, reason: error.reason ?? null, message: String(error.shortMessage ?? error.message) };
}

async function within(ms, promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function reads() {
  facts.chainId = Number((await provider.getNetwork()).chainId);
  facts.head = await provider.getBlockNumber();
  const byNumber = await provider.getBlock(input.bigBlock, false);
  const full = await provider.getBlock(input.bigBlock, true);
  const byHash = await provider.getBlock(byNumber.hash, false);
  facts.blockByNumber = blockFacts(byNumber);
  facts.blockFull = blockFacts(full, true);
  facts.blockByHash = blockFacts(byHash);
  const tx = await provider.getTransaction(input.tokenTransfer);
  facts.transaction = {
    hash: tx.hash, from: tx.from.toLowerCase(), to: tx.to.toLowerCase(), nonce: tx.nonce,
    blockNumber: tx.blockNumber, index: tx.index, type: tx.type, chainId: big(tx.chainId),
    gasPrice: big(tx.gasPrice), value: big(tx.value), data: tx.data,
  };
  const receipt = await provider.getTransactionReceipt(input.tokenTransfer);
  facts.receipt = {
    status: receipt.status, blockNumber: receipt.blockNumber, gasUsed: big(receipt.gasUsed),
    logs: receipt.logs.length, contractAddress: receipt.contractAddress,
  };
  const created = await provider.getTransactionReceipt(input.contractCreation);
  facts.creationAddress = created.contractAddress?.toLowerCase() ?? null;
  facts.balance = big(await provider.getBalance(input.account, input.bigBlock));
  facts.code = await provider.getCode(input.token);
  facts.storage0 = await provider.getStorage(input.token, 0, "latest");
  const transfer = id("Transfer(address,address,uint256)");
  const logs = await provider.getLogs({ address: input.token, topics: [transfer], fromBlock: input.bigBlock, toBlock: input.bigBlock });
  facts.logs = logs.map((log) => ({ tx: log.transactionHash, index: log.index, block: log.blockNumber }));
  const token = new Contract(input.token, input.abi.DevToken, provider);
  facts.symbol = await token.symbol();
  facts.tokenBalance = big(await token.balanceOf(input.account));
  facts.estimate = big(await provider.estimateGas({ to: input.account, value: 1n, from: wallet.address }));
  facts.gasPrice = big((await provider.getFeeData()).gasPrice);
}

async function writes() {
  // No type, no gas limit, no gas price: ethers estimates (sending chainId) and picks legacy.
  const sent = await wallet.sendTransaction({ to: input.account, value: 1234n });
  const mined = await within(30000, sent.wait(), "the transfer's receipt");
  facts.sent = { hash: sent.hash, type: sent.type, status: mined.status, block: mined.blockNumber, gasUsed: big(mined.gasUsed) };
  const legacy = await wallet.sendTransaction({ to: input.account, value: 1n, type: 0, chainId: input.chainId });
  facts.legacy = { status: (await within(30000, legacy.wait(), "the legacy receipt")).status, type: legacy.type };
  const factory = new ContractFactory(input.abi.DevToken, input.bytecode.DevToken, wallet);
  const deployed = await factory.deploy("Client Token", "CLT", 10n ** 24n);
  await within(30000, deployed.waitForDeployment(), "the deployment");
  const creation = await deployed.deploymentTransaction().wait();
  facts.deployed = {
    address: (await deployed.getAddress()).toLowerCase(),
    receiptAddress: creation.contractAddress.toLowerCase(),
    symbol: await deployed.symbol(),
    supply: big(await deployed.totalSupply()),
  };
  return deployed;
}

async function reverts() {
  const reverter = new Contract(input.reverter, input.abi.Reverter, wallet);
  facts.double = big(await reverter.double(4));
  try {
    await reverter.double(50);
    facts.callRevert = null;
  } catch (error) {
    facts.callRevert = failure(error);
  }
  try {
    facts.estimateRevert = { gas: big(await reverter.poke.estimateGas(50)) };
  } catch (error) {
    facts.estimateRevert = failure(error);
  }
}

async function events(deployed) {
  if (!input.filters) return;
  const receiver = Wallet.createRandom().address;
  const heard = new Promise((resolve) => {
    deployed.on("Transfer", (from, to, value, event) => {
      if (to === receiver) resolve({ from: from.toLowerCase(), to, value: big(value), tx: event.log.transactionHash });
    });
  });
  await new Promise((resolve) => setTimeout(resolve, 500)); // the filter is installed
  const moved = await deployed.transfer(receiver, 77n);
  await within(30000, moved.wait(), "the token transfer");
  facts.event = await within(30000, heard, "contract.on('Transfer')");
  facts.event.sent = moved.hash;
  facts.event.receiver = receiver;
  await deployed.removeAllListeners();
  const blocks = await provider.send("eth_newBlockFilter", []);
  await provider.send("evm_mine", []);
  facts.blockFilter = await provider.send("eth_getFilterChanges", [blocks]);
  facts.latest = (await provider.getBlock("latest")).hash;
}

try {
  await reads();
  const deployed = await writes();
  await reverts();
  await events(deployed);
  console.log(JSON.stringify(facts));
} catch (error) {
  console.log(JSON.stringify({ ...facts, error: failure(error), stack: String(error.stack) }));
} finally {
  provider.destroy();
}
