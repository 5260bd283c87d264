"""Load test: many concurrent asks against one process, as the dashboard serves several sessions.

    .venv/bin/python benchmarks/load.py              # under a minute; writes benchmarks/results/load.json

One shared Store (the embedded Qdrant behind its lock), one shared embedded model and one shared
chat client, as the dashboard's cached resources are; the demo corpus indexed with the default
strategy. The chat model is the LM Studio emulator from tests/fixtures/lmstudio.py, started in
this process on 127.0.0.1 (loopback only). It answers by repeating the question it was sent and
citing the first extract it was given, so a mixed-up answer between threads shows.

First every demo question is asked once, one at a time: that is the reference. Then --threads
threads ask --asks questions each (all at once, round robin over the set) through rag.answer.engine.ask.
Every concurrent result must equal the reference: same passages in the same order, same refusal,
an answer that repeats this thread's question and whose sources are the cited passage. Any
exception or mismatch is counted and listed; the exit status is 1 if there is one. Reported:
throughput (asks/s) and latency p50/p95, sequential and concurrent, and the chat calls made.

--emulator-process runs the emulator in a child process instead, as LM Studio is a process of its
own: the app then does not share its interpreter lock with the stand-in chat model.

Without pytest (the emulator module imports it) the chat model is left out: the test then runs
retrieval plus the refusal path (a threshold above every score), and says so.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (  # noqa: E402
    RESULTS,
    embed_threads,
    finish,
    latency_summary,
    machine,
    say,
    settings_for,
    temp_data_dir,
)

from rag.answer.engine import ask  # noqa: E402
from rag.demo import DEMO_DIR, QUESTIONS_PATH  # noqa: E402
from rag.embeddings.embedded import EmbeddedEmbedder  # noqa: E402
from rag.ingest.run import ingest  # noqa: E402
from rag.servers.chat import LLMClient  # noqa: E402
from rag.evaluate.questions import load_questions  # noqa: E402
from rag.sources.files import iter_folder  # noqa: E402
from rag.store.store import Store  # noqa: E402

OUT = RESULTS / "load.json"
COLLECTION = "blog"
STRATEGY = "sections"  # what the dashboard's "Load the demo corpus" button indexes with
_QUESTION = re.compile(r"(?:Question :|Question:)\s*(.*)\Z", re.DOTALL)
_EXTRACT = re.compile(r'<(?:extrait|extract) n="(\d+)">')
_FIXED_THRESHOLD_REFUSE_ALL = 1.01  # above every cosine: the refusal path only


def echo_answer(messages: list[dict[str, Any]]) -> str:
    """The emulator's answer: this request's question, and a citation of its first extract."""
    user = messages[-1]["content"]
    question = _QUESTION.search(user)
    numbers = [int(n) for n in _EXTRACT.findall(user)]
    first = min(numbers) if numbers else 1
    return f"{question.group(1).strip() if question else ''} -> voir [{first}]."


def signature(result: Any) -> dict[str, Any]:
    """What must not change between a lone ask and the same ask under load."""
    return {
        "passages": [(p.id, round(p.score, 5)) for p in result.passages],
        "refused": result.refused,
        "llm_error": result.llm_error,
    }


def check(question: str, result: Any, reference: dict[str, Any], with_llm: bool) -> str | None:
    """None when the concurrent result is right, else what is wrong."""
    got = signature(result)
    if got["passages"] != reference["passages"]:
        return "passages differ from the sequential run"
    if got["refused"] != reference["refused"]:
        return f"refused={got['refused']} but {reference['refused']} in the sequential run"
    if got["llm_error"] or (with_llm and got["llm_error"] != reference["llm_error"]):
        return f"llm_error: {got['llm_error']}"
    if result.refused or not with_llm:
        return None
    answer = result.raw_answer or ""
    if not answer.startswith(question.strip()):
        return f"the answer is not about this question: {answer[:80]!r}"
    sent = sorted(result.sent_passages)
    if not result.sources or result.sources[0].n != sent[0]:
        return f"sources {[s.n for s in result.sources]} do not match the cited extract [{sent[0]}]"
    cited = next(p for p in result.passages if p.n == sent[0])
    if result.sources[0].url != cited.url:
        return "the source url is not the cited passage's url"
    return None


def start_emulator() -> Any:
    from tests.fixtures import lmstudio

    # Without TCP_NODELAY, Python's http.server sends the headers and the body in separate
    # small segments and every response waits ~40 ms for the client's delayed ACK: a
    # loopback artefact of the emulator that would dominate the latency measured here.
    lmstudio._Handler.disable_nagle_algorithm = True
    original_get = lmstudio._Handler.do_GET

    def do_get(handler: Any) -> None:
        # One extra path, for the parent process when the emulator runs in its own process.
        if handler.path == "/bench/chat_calls":
            handler._send_json(200, {"chat_calls": handler.emulator.chat_calls})
        else:
            original_get(handler)

    lmstudio._Handler.do_GET = do_get
    emulator = lmstudio.LMStudioEmulator().up()
    emulator.answer = echo_answer
    return emulator


def serve_emulator() -> int:
    """Child process: serve until the parent closes our stdin."""
    emulator = start_emulator()
    print(emulator.port, flush=True)
    sys.stdin.read()
    emulator.down()
    return 0


class ChildEmulator:
    """The emulator in its own process, so it does not share this process's GIL with the app."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, __file__, "--serve-emulator"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        if not line.strip().isdigit():
            self.proc.kill()
            raise ImportError(f"the emulator process did not start (said {line!r})")
        self.url = f"http://127.0.0.1:{int(line)}/v1"

    @property
    def chat_calls(self) -> int:
        root = self.url[: -len("/v1")]
        return int(httpx.get(f"{root}/bench/chat_calls", timeout=5.0).json()["chat_calls"])

    def down(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=8, help="concurrent askers (default 8)")
    parser.add_argument("--asks", type=int, default=25, help="asks per thread (default 25)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds before the test gives up (default 300)")
    parser.add_argument("--emulator-process", action="store_true",
                        help="run the emulator in its own process (as LM Studio is) instead of this one")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--serve-emulator", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve_emulator:
        return serve_emulator()

    started = time.monotonic()
    threads_embed = embed_threads()
    questions = load_questions(QUESTIONS_PATH)
    try:
        emulator: Any = ChildEmulator() if args.emulator_process else start_emulator()
        with_llm = True
    except ImportError as exc:
        say(f"the LM Studio emulator cannot be imported ({exc}): retrieval and refusal path only")
        emulator, with_llm = None, False

    results: dict[str, Any] = {
        "machine": machine(),
        "settings": {"threads": args.threads, "asks_per_thread": args.asks, "collection_strategy": STRATEGY,
                     "corpus": "rag/demo/articles", "questions": "rag/demo/questions.jsonl",
                     "embed_threads": threads_embed, "top_k": 6, "mode": "auto",
                     "llm": (f"LM Studio emulator on 127.0.0.1 ({'its own process' if args.emulator_process else 'in process'}"
                             ", TCP_NODELAY)") if with_llm
                     else "none: refusal path (threshold above every score)"},
    }
    errors: list[dict[str, Any]] = []
    try:
        with temp_data_dir("load") as data_dir:
            settings = settings_for(data_dir, embed_model="embedded", embed_threads=threads_embed,
                                    llm_url=emulator.url if emulator else "http://127.0.0.1:9/v1", timeout=30.0)
            store = Store(settings)
            embedder = EmbeddedEmbedder(threads=threads_embed)
            llm = LLMClient(settings.llm_url, timeout=30.0, connect_timeout=2.0)
            threshold = None if with_llm else _FIXED_THRESHOLD_REFUSE_ALL
            try:
                say(f"indexing the demo corpus ({STRATEGY})...")
                report = ingest(list(iter_folder(DEMO_DIR)), store, embedder, COLLECTION, strategy=STRATEGY)
                assert report.ok, report.summary()
                results["collection"] = {"documents": report.new + report.changed + report.unchanged,
                                         "chunks": store.count(COLLECTION), "ingest_seconds": round(report.seconds, 1)}

                def one(question: str) -> Any:
                    return ask(question, settings, store=store, embedder=embedder, llm=llm,
                               collection=COLLECTION, threshold=threshold)

                say(f"sequential reference: {len(questions)} asks...")
                reference, seq_times, found = {}, [], 0
                calls_before = emulator.chat_calls if emulator else 0
                seq_start = time.perf_counter()
                for q in questions:
                    t = time.perf_counter()
                    result = one(q.question)
                    seq_times.append(time.perf_counter() - t)
                    reference[q.id] = signature(result)
                    found += q.in_base and any(p.url in q.accepted_urls for p in result.passages)
                    if result.llm_error:
                        errors.append({"phase": "sequential", "id": q.id, "error": result.llm_error})
                seq_wall = time.perf_counter() - seq_start
                answered = [i for i, r in reference.items() if not r["refused"]]
                results["sequential"] = {
                    "asks": len(questions),
                    "seconds": round(seq_wall, 2),
                    "asks_per_second": round(len(questions) / seq_wall, 2),
                    "latency": latency_summary(seq_times),
                    "answered": len(answered),
                    "refused": len(questions) - len(answered),
                    "in_base_with_expected_passage": int(found),
                    "in_base": sum(1 for q in questions if q.in_base),
                    "chat_calls": (emulator.chat_calls - calls_before) if emulator else 0,
                }
                say(f"  {results['sequential']['asks_per_second']} asks/s, p50 "
                    f"{results['sequential']['latency']['p50_ms']} ms; {len(answered)} answered")

                say(f"concurrent: {args.threads} threads x {args.asks} asks...")
                lock = threading.Lock()
                times: list[float] = []
                wrong: list[dict[str, Any]] = []
                barrier = threading.Barrier(args.threads)
                calls_before = emulator.chat_calls if emulator else 0
                expected_calls = 0

                def worker(t: int) -> None:
                    nonlocal expected_calls
                    barrier.wait(timeout=60)
                    for i in range(args.asks):
                        q = questions[(t * args.asks + i) % len(questions)]
                        start = time.perf_counter()
                        try:
                            result = one(q.question)
                        except Exception as exc:  # every failure is a finding, whatever its type
                            with lock:
                                errors.append({"phase": "concurrent", "thread": t, "id": q.id,
                                               "error": f"{type(exc).__name__}: {exc}"})
                            continue
                        seconds = time.perf_counter() - start
                        problem = check(q.question, result, reference[q.id], with_llm)
                        with lock:
                            times.append(seconds)
                            if not reference[q.id]["refused"]:
                                expected_calls += 1
                            if problem:
                                wrong.append({"thread": t, "id": q.id, "problem": problem})

                pool = [threading.Thread(target=worker, args=(t,), daemon=True) for t in range(args.threads)]
                conc_start = time.perf_counter()
                for th in pool:
                    th.start()
                deadline = time.monotonic() + args.timeout
                for th in pool:
                    th.join(timeout=max(0.0, deadline - time.monotonic()))
                conc_wall = time.perf_counter() - conc_start
                hung = sum(1 for th in pool if th.is_alive())
                total = args.threads * args.asks
                results["concurrent"] = {
                    "threads": args.threads,
                    "asks": total,
                    "completed": len(times),
                    "seconds": round(conc_wall, 2),
                    "asks_per_second": round(len(times) / conc_wall, 2),
                    "latency": latency_summary(times) if times else None,
                    "errors": len([e for e in errors if e["phase"] == "concurrent"]),
                    "wrong_answers": len(wrong),
                    "threads_still_running_at_timeout": hung,
                    "chat_calls": (emulator.chat_calls - calls_before) if emulator else 0,
                    "chat_calls_expected": expected_calls,
                }
                c = results["concurrent"]
                say(f"  {c['completed']}/{total} asks in {c['seconds']} s = {c['asks_per_second']} asks/s, "
                    f"p50 {c['latency']['p50_ms'] if c['latency'] else None} ms, "
                    f"p95 {c['latency']['p95_ms'] if c['latency'] else None} ms; "
                    f"{c['errors']} errors, {c['wrong_answers']} wrong, chat calls {c['chat_calls']}"
                    f"/{c['chat_calls_expected']}")
                results["errors"] = errors[:50]
                results["wrong"] = wrong[:50]
                ok = (not errors and not wrong and not hung and c["completed"] == total
                      and c["chat_calls"] == c["chat_calls_expected"])
                results["ok"] = ok
            finally:
                llm.close()
                store.close()
    finally:
        if emulator:
            emulator.down()
    finish(results, args.out, started)
    return 0 if results.get("ok") else 1


if __name__ == "__main__":
    sys.exit(main())
