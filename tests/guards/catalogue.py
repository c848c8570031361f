"""Every safety guard: where it is, a mutation that takes it away, the test that must fail.

`make guards` (python -m tests.guards) applies each mutation to a scratch copy of the
repository and runs its test there; a test that still passes is a guard no test guards.
"""

from __future__ import annotations

from dataclasses import dataclass

RELIABILITY = "tests/gui/reliability"
CONTRADICTIONS = "tests/services/test_contradictions.py"
POISONED = "tests/cli/test_poisoned_saved_data.py"
SAVED_FILES = "tests/cli/test_saved_files.py"
SHARED = "tests/cli/test_shared_saved_data.py"


@dataclass(frozen=True)
class Guard:
    """One safety guard: the text that is it, the text without it, and the test that notices."""

    name: str
    path: str  # the file, relative to the repository
    original: str  # found exactly once in the file
    mutated: str
    test: str  # a pytest node id (or file::test with a -k expression after a space)


GUARDS: tuple[Guard, ...] = (
    Guard(
        "chain identity: the chain id",
        "explorer/services/chaincheck.py",
        "same_chain = probe.ids_match and",
        "same_chain = True and",
        f"{RELIABILITY}/test_findings.py::"
        "test_finding_1_a_node_that_recovers_on_another_chain_is_never_the_chosen_network",
    ),
    Guard(
        "chain identity: the genesis block",
        "explorer/services/chaincheck.py",
        "(wanted is None or probe.genesis_hash == wanted)",
        "(True)",
        f"{RELIABILITY}/test_chain_identity.py::test_a_public_network_must_have_its_known_genesis",
    ),
    Guard(
        "chain checked again: a head that goes back",
        "explorer/viewmodels/headpoll.py",
        "if session is self.session and event.number < self._newest:",
        "if False:",
        f"{RELIABILITY}/test_chain_identity.py::test_a_head_that_goes_back_is_checked_before_it_is_shown",
    ),
    Guard(
        "chain checked again: a deep reorganisation or a parent-hash break",
        "explorer/viewmodels/home.py",
        "if advance.suspicious:",
        "if False:",
        f"{RELIABILITY}/test_chain_identity.py::"
        "test_a_same_id_chain_ahead_is_caught_by_its_first_block_s_parent_hash",
    ),
    Guard(
        "a network that cannot be used closes the old session",
        "explorer/app/application.py",
        "self.shell.set_no_session(network.name, self.networks.unavailable_reason(network))",
        "self.shell.show_notice(f'{network.name} cannot be used', Tone.BAD)",
        f"{RELIABILITY}/test_chain_identity.py::"
        "test_a_network_that_cannot_be_used_closes_the_old_session",
    ),
    Guard(
        "latest wins: a superseded page load",
        "explorer/viewmodels/page.py",
        '''        """
        self.dispose_task()
        self._follow_check()''',
        '''        """
        self._follow_check()''',
        "tests/gui/test_rules.py::test_a_superseded_page_load_publishes_nothing",
    ),
    Guard(
        "latest wins: a replaced session's late answers",
        "explorer/services/chaincheck.py",
        '''"""End the check for good and forget every listener."""
        self._stopped = True''',
        '''"""End the check for good and forget every listener."""
        return
        self._stopped = True''',
        "tests/gui/test_rules.py::test_a_replaced_sessions_late_probe_is_ignored",
    ),
    Guard(
        "plain-text labels",
        "explorer/views/theme.py",
        "label.setTextFormat(Qt.TextFormat.PlainText)",
        "label.setTextFormat(Qt.TextFormat.AutoText)",
        "tests/gui/test_rules.py::test_every_label_of_the_document_view_shows_markup_literally",
    ),
    Guard(
        "key scrubbing: error messages",
        "explorer/rpc/client.py",
        "error.redact(self.endpoint.api_key)",
        "error.redact(None)",
        f"{RELIABILITY}/test_behaviours.py -k echo_path",
    ),
    Guard(
        "key scrubbing: the node's own words (web3_clientVersion)",
        "explorer/rpc/client.py",
        "if method in NODE_WORDS and isinstance(result, str):",
        "if False and isinstance(result, str):",
        f"{RELIABILITY}/test_mutants.py::test_a_key_echoed_in_the_client_version_is_shown_nowhere",
    ),
    Guard(
        "key scrubbing: every stored key, by value, in logs and reports",
        "explorer/app/application.py",
        "self._know_keys()  # a key saved in Settings",
        "pass  # a key saved in Settings",
        f"{RELIABILITY}/test_keys.py",
    ),
    Guard(
        "keys: whatever ends a custom URL is the key, whatever its length",
        "explorer/services/network_forms.py",
        "if not key or form.api_key.strip()",
        "if len(key) < 16 or form.api_key.strip()",
        f"{RELIABILITY}/test_keys.py",
    ),
    Guard(
        "keys: no usage error echoes an argument",
        "explorer/cli/keysafe.py",
        "text = without_typed_words(message, self._given, options)",
        "text = message",
        "tests/cli/test_usage_errors.py -k kye",
    ),
    Guard(
        "keys: redirects are not followed (the key stays with its host)",
        "explorer/rpc/transport.py",
        "allow_redirects=False,",
        "allow_redirects=True,",
        "tests/rpc/test_rpc_failures.py::test_redirect_to_another_host_is_refused",
    ),
    Guard(
        "never resent: a transaction that may have arrived",
        "explorer/rpc/retry.py",
        "return resendable or not error.maybe_sent",
        "return True",
        "tests/rpc/test_rpc_failures.py::test_send_raw_transaction_is_never_resent_once_sent",
    ),
    Guard(
        "refusing another chain's signed transaction",
        "explorer/services/rawtx.py",
        "if tx.chain_id is None or tx.chain_id == chain_id:",
        "if True:",
        "tests/unit/test_rawtx.py::test_another_chain_is_refused_and_no_chain_id_is_not",
    ),
    Guard(
        "log limits: a refused range is split, the node's cap learnt",
        "explorer/services/logplan.py",
        "return isinstance(error, NodeError) and error.failure in LIMIT_FAILURES",
        "return False",
        "tests/services/test_logscan_limits.py::test_a_span_cap_is_learnt_with_one_wasted_request",
    ),
    Guard(
        "file modes: what the app writes is 0600",
        "explorer/saved/files.py",
        "PRIVATE_FILE = 0o600",
        "PRIVATE_FILE = 0o644",
        f"{RELIABILITY}/test_keys.py",
    ),
    Guard(
        "file modes: the settings file (API keys) is 0600",
        "explorer/settings/settings_file.py",
        "FILE_MODE = 0o600",
        "FILE_MODE = 0o644",
        "tests/gui/settings/test_secrets_at_rest.py::"
        "test_a_new_settings_file_is_private_and_rewritten_private_on_every_save",
    ),
    Guard(
        "first-frame imports: the HTTP stack loads after the first frame",
        "explorer/app/startup.py",
        "from explorer.settings import store as keys\n",
        "from explorer.settings import store as keys\nimport httpx  # noqa: F401\n",
        "tests/e2e/test_startup.py::"
        "test_the_first_frame_comes_before_the_chain_libraries_and_the_http_stack",
    ),
    Guard(
        "number range checks: a block number fits in 63 bits",
        "explorer/chain/bounds.py",
        'BLOCK_NUMBER = Bound(2**63 - 1, "',
        'BLOCK_NUMBER = Bound(2**6000, "',
        f"{RELIABILITY}/test_numbers.py -k impossible",
    ),
    Guard(
        "numbers reach Qt whole: a head past 32 bits",
        "explorer/viewmodels/observable.py",
        '{int: "qlonglong",',
        "{int: int,",
        f"{RELIABILITY}/test_numbers.py::test_a_head_past_32_bits_reaches_the_window_intact",
    ),
    Guard(
        "Cancel cancels: a shared read ends with its last caller",
        "explorer/services/reader.py",
        "reading.cancel()  # the last caller stopped waiting",
        "pass  # the last caller stopped waiting",
        f"{RELIABILITY}/test_cancel.py::test_cancel_stops_the_request_and_its_retries",
    ),
    Guard(
        "Cancel cancels only its own: a read being cancelled is not joined",
        "explorer/services/reader.py",
        "self._reading.pop(key)  # nobody joins a read being cancelled",
        "pass  # nobody joins a read being cancelled",
        "tests/services/test_reader.py::"
        "test_a_caller_arriving_as_the_last_one_leaves_gets_the_block_not_a_cancellation",
    ),
    Guard(
        "a page taken down reads nothing more: its view gone cancels the load",
        "explorer/viewmodels/pacing.py",
        "        if self._gone:\n            raise asyncio.CancelledError",
        "        if self._gone:\n            return",
        "tests/gui/test_pacing.py::"
        "test_a_page_taken_down_while_its_view_shows_a_stage_reads_nothing_more",
    ),
    Guard(
        "no crash on deep input: the warm-up keeps the default recursion limit",
        "explorer/vm/__init__.py",
        "lambda _limit: None)  # noqa: B010 - py-evm's raise is a no-op",
        "sys.setrecursionlimit)",
        "tests/e2e/test_startup.py::"
        "test_the_pages_modules_are_imported_ahead_py_evm_off_the_gui_thread",
    ),
    Guard(
        "bounded waits: a call gives up after the call timeout",
        "explorer/rpc/client.py",
        "async with asyncio.timeout(self.call_timeout):",
        "async with asyncio.timeout(None):",
        f"{RELIABILITY}/test_cancel.py::test_a_call_gives_up_after_the_time_chosen_in_settings",
    ),
    Guard(
        "requests counted per key when a session ends",
        "explorer/app/saved_data.py",
        "        self._start(_quietly(tally.flush()))\n\n    def set_quota",
        "        pass\n\n    def set_quota",
        f"{RELIABILITY}/test_mutants.py::test_the_requests_of_a_session_that_ends_count_against_its_key",
    ),
    Guard(
        "no search while the chain check is pending",
        "explorer/viewmodels/search.py",
        "if not self.session.readable:  # verified, or offline with saved data",
        "if False:",
        f"{RELIABILITY}/test_stale_texts.py::"
        "test_a_search_waits_for_the_chain_check_and_says_so_only_while_it_does",
    ),
    Guard(
        "a page's tasks end with the page",
        "explorer/viewmodels/logs.py",
        '''        """Change the scan's message for the user."""
        if self._disposed:''',
        '''        """Change the scan's message for the user."""
        if False:''',
        f"{RELIABILITY}/test_page_tasks.py::"
        "test_closing_the_logs_tab_during_a_scan_ends_its_work_quietly",
    ),
    Guard(
        "verify: the block hash recomputed",
        "explorer/chain/rskheader.py",
        "        if computed == fields.claimed_hash:",
        "        if True:",
        "tests/cli/test_verify_cli.py::test_a_forged_field_is_named_and_exits_1 -k miner",
    ),
    Guard(
        "verify: the transactions root recomputed",
        "explorer/chain/blockverify.py",
        "    if root != fields.transactions_root:",
        "    if False:",
        "tests/unit/test_block_recompute.py::test_transactions_dropped_swapped_or_added_are_caught"
        " -k swap",
    ),
    Guard(
        "verify: the receipts root recomputed",
        "explorer/chain/blockverify.py",
        "    if root != fields.receipts_root:",
        "    if False:",
        "tests/cli/test_verify_cli.py::test_a_forged_field_is_named_and_exits_1 -k status",
    ),
    Guard(
        "verify: bound to Bitcoin work",
        "explorer/chain/workbinding.py",
        "    if mm.display_hex(root) != header.merkle_root:",
        "    if False:",
        "tests/cli/test_verify_cli.py::test_a_forged_field_is_named_and_exits_1 -k proof",
    ),
    Guard(
        "verify: an unreadable transaction or receipt is named, never raised",
        "explorer/chain/blockverify.py",
        "        return compute()\n    except (RecordFormatError, HexFormatError) as error:",
        "        return compute()\n    except ZeroDivisionError as error:",
        "tests/unit/test_block_recompute.py::"
        "test_unreadable_transactions_and_receipts_are_named_never_raised",
    ),
    Guard(
        "verify: a block's parent hash against its verified parent",
        "explorer/services/verification.py",
        "        if parent is not None and parent.block_hash != block.parent_hash:",
        "        if False:",
        "tests/services/test_verified_chain.py::"
        "test_a_parent_hash_that_contradicts_the_verified_parent_is_a_mismatch",
    ),
    Guard(
        "verify: a forged page is marked in red",
        "explorer/presentation/loaders.py",
        "    return with_verdict(document, await reader.verifier.block_off_thread("
        "block, receipts))",
        "    return document",
        f"{RELIABILITY}/test_verification.py::test_a_forged_transaction_is_named_in_red",
    ),
    Guard(
        "RLP bound: a deep legacy Bridge log",
        "explorer/chain/rlpbound.py",
        "        if len(ends) > max_depth:",
        "        if False:",
        f"{RELIABILITY}/test_decoder_bounds.py",
    ),
    Guard(
        "saved data: the folder is 0700",
        "explorer/saved/directory.py",
        "private_directory(self.root)",
        "self.root.mkdir(parents=True, exist_ok=True)",
        f"{SAVED_FILES}::test_the_saved_data_folder_is_0700_and_its_files_0600",
    ),
    Guard(
        "saved data: its files are 0600",
        "explorer/saved/sqlite_file.py",
        "db = sqlite3.connect(create_private(path), timeout=busy_timeout, isolation_level=None)",
        "db = sqlite3.connect(path, timeout=busy_timeout, isolation_level=None)",
        f"{SAVED_FILES}::test_the_saved_data_folder_is_0700_and_its_files_0600",
    ),
    Guard(
        "saved data: ids of URLs and keys salted per profile",
        "explorer/saved/salt.py",
        "return hmac.new(salt, text.encode(), hashlib.sha256).hexdigest()[:ID_CHARS]",
        "return text",
        f"{SAVED_FILES}::test_no_bare_hash_of_the_url_and_its_key_is_kept",
    ),
    Guard(
        "saved data: a locked file is waited for, never taken for damaged",
        "explorer/saved/guarded.py",
        "            if locked(error):\n                self.locked, self._locked_at",
        "            if False:\n                self.locked, self._locked_at",
        f"{SAVED_FILES}::test_a_locked_saved_data_file_is_waited_for_and_never_discarded",
    ),
    Guard(
        "saved data: writes wait for a locked file",
        "explorer/saved/store.py",
        "self._pending[:0] = batch",
        "pass",
        "tests/saved/test_locked.py::"
        "test_what_is_read_while_the_file_is_locked_is_written_once_it_is_free",
    ),
    Guard(
        "saved data: a damaged file moved aside is said on stderr",
        "explorer/cli/saved.py",
        "saved.notice_listeners.append(note)",
        "pass",
        f"{SAVED_FILES}::test_a_damaged_saved_data_file_is_moved_aside_and_said_on_stderr",
    ),
    Guard(
        "chain identity watched: the chain id every poll carries",
        "explorer/services/chainwatch.py",
        "if verified is None or chain_id == verified:",
        "if True:",
        f"{RELIABILITY}/test_chain_watch.py::"
        "test_a_node_that_relabels_its_chain_is_caught_by_the_next_polls",
    ),
    Guard(
        "chain identity watched: a new head's parent link against the head seen before",
        "explorer/services/chainwatch.py",
        "if child is None or child.parent_hash != tip[1]:",
        "if False:",
        "tests/services/test_chain_watch_link.py::"
        "test_a_new_head_whose_parent_is_not_the_last_head_is_read_back",
    ),
    Guard(
        "history contradiction: a nonce that goes down",
        "explorer/services/balance_search.py",
        "if after.nonce < before.nonce:",
        "if False:",
        f"{CONTRADICTIONS}::test_a_nonce_that_goes_down_is_a_contradiction",
    ),
    Guard(
        "history contradiction: a block read again with another balance",
        "explorer/services/balance_search.py",
        "            witnessed(self.states, witness, again)",
        "            pass",
        f"{CONTRADICTIONS}::test_a_block_read_again_with_another_balance_is_a_contradiction",
    ),
    Guard(
        "history contradiction: value nothing in its block could move (state answered as 0x0)",
        "explorer/services/attribution.py",
        "if not moved or runs_code(block):",
        "if True:",
        f"{CONTRADICTIONS}::"
        "test_value_no_code_in_its_block_could_move_is_old_state_answered_as_zero",
    ),
    Guard(
        "keys: the one scrubber takes any letter case and %-encoding",
        "explorer/chain/secrets.py",
        'return re.compile("".join(map(_character, secret)), re.IGNORECASE)',
        "return re.compile(re.escape(secret))",
        "tests/unit/test_secrets.py::test_every_form_the_issue_names_is_scrubbed",
    ),
    Guard(
        "keys: a node's error echoing the key upper-cased is scrubbed on every screen",
        "explorer/rpc/errors.py",
        "self.message = scrub(self.message, [secret], replacement=replacement)",
        "self.message = self.message.replace(secret, replacement)",
        f"{RELIABILITY}/test_behaviours.py -k echo_upper",
    ),
    Guard(
        "per-endpoint saved data: what one endpoint said is never answered for another",
        "explorer/saved/cache.py",
        "scope = await self.directory.endpoint_scope(self.endpoint)",
        "scope = None",
        f"{POISONED}::test_an_honest_endpoint_never_shows_what_a_hostile_one_saved",
    ),
    Guard(
        "saved data: a block whose child's parent hash contradicts it is dropped",
        "explorer/saved/reorg.py",
        "for number, block_hash in rules.sightings(result):",
        "for number, block_hash in [s for s in rules.sightings(result) if state.settled(s[0])]:",
        f"{POISONED}::test_a_block_its_child_contradicts_is_dropped",
    ),
    Guard(
        "saved data: parent links walked down the saved run find a forged block deep in it",
        "explorer/saved/reorg.py",
        "            broken = await store.broken_link(number, parent_hash)",
        "            broken = None",
        f"{POISONED}::test_a_forged_block_deep_in_a_saved_run_is_dropped",
    ),
    Guard(
        "transactions seen: what one endpoint saw pending is never found for another",
        "explorer/saved/seen.py",
        '"AND (endpoint = ? OR sent_here = 1)',
        '"AND (endpoint = ? OR 1)',
        "tests/services/test_seen_store.py::"
        "test_what_one_endpoint_saw_pending_is_never_found_for_another",
    ),
    Guard(
        "shared saved data: taken only when this endpoint serves the same hash at that height",
        "explorer/saved/sharing.py",
        "return self._served[number] == block_hash",
        "return True",
        f"{SHARED}::test_another_endpoint_serving_another_block_there_never_takes_the_shared_one",
    ),
    Guard(
        "shared saved data: receipts only when they recompute to their block's receipts root",
        "explorer/saved/sharing.py",
        "if not verdict.verified or not receipts_bound:",
        "if False:",
        f"{SHARED}::test_receipts_that_do_not_recompute_are_never_shared",
    ),
)
