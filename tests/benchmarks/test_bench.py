"""Tests for benchmarks (``rummy-bot bench``): behaviour only, never timings.

Tests marked ``bench`` run the peers of the bench extra (rlcard, rummikub-solver); the
normal suite deselects them, .ci/run runs them in their own step (``pytest -m bench``)."""

from __future__ import annotations

import gc
import io
import json
import sys
import types
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import pytest

from benchmarks import ai, legal, machine, playouts, runner, strength
from benchmarks.heap import worker_heap
from benchmarks.report import BenchConfig, Row, Section, format_report, median, percentile
from benchmarks.search import (
    RUMMIKUB_RULES,
    RummikubPeer,
    card_hands,
    compare,
    illegal_melds,
    racks,
)
from bot.cli import main
from devsupport.engine_build import engine_build
from engine.cards import JOKER, Card, parse_card, parse_cards
from engine.melds import CardSpec
from engine.rules import make_rules
from engine.search import Partition
from engine.variants.romanian.melds import MELD_RULES as ROMANIAN_RULES


@pytest.fixture(autouse=True)
def _english_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "C.UTF-8")


# --- report ----------------------------------------------------------------------------------


def test_verdict_of_a_met_and_a_missed_target() -> None:
    assert Row("a", 0.1, "ms", 0.2, "lower").verdict == "ok"
    assert Row("a", 0.3, "ms", 0.2, "lower").verdict == "MISSED (x1.50)"
    assert Row("a", 30.0, "x", 25.0, "higher").verdict == "ok"
    assert Row("a", 10.0, "x", 25.0, "higher").verdict == "MISSED (x2.50)"
    assert Row("a", 1.0, "x").verdict == ""
    assert Row("a", None, "x", 3.0, "higher").met is None


def test_format_report_shows_target_side_verdict_and_notes() -> None:
    section = Section(
        "Demo",
        [Row("speed", 1.0, "x", 3.0, "higher", "why it is slow"), Row("count", 12, "hands")],
        ["a note"],
    )
    text = format_report(["header line"], [section])
    lines = text.splitlines()
    assert lines[0] == "header line"
    assert "== Demo ==" in lines
    speed = next(line for line in lines if line.startswith("speed"))
    assert ">= 3.00" in speed and "MISSED (x3.00)" in speed and "why it is slow" in speed
    count = next(line for line in lines if line.startswith("count"))
    assert " 12 " in count  # a count prints without decimals
    assert "  * a note" in lines


def test_percentile_and_median_on_known_data() -> None:
    data = [4.0, 1.0, 3.0, 2.0]
    assert percentile(data, 0) == 1.0
    assert percentile(data, 100) == 4.0
    assert percentile(data, 50) == 2.5
    assert median(data) == 2.5
    assert percentile([float(i) for i in range(1, 101)], 99) == pytest.approx(99.01)
    assert percentile([7.0], 99) == 7.0
    with pytest.raises(ValueError):
        percentile([], 50)


# --- machine ---------------------------------------------------------------------------------


@pytest.mark.bench
def test_machine_description_names_cpu_ram_python_and_peers() -> None:
    info = machine.describe(Path.cwd())
    assert list(info) == [
        "cpu",
        "ram",
        "os",
        "python",
        "project",
        "engine",
        "peers",
        "disk",
        "load",
        "date",
    ]
    assert info["engine"] == str(engine_build())
    assert info["engine"].startswith(("pure Python", "compiled with mypyc: "))
    assert "logical CPUs" in info["cpu"]
    assert info["python"].startswith(("CPython", "PyPy"))
    assert "rummikub-solver" in info["peers"] and "rlcard" in info["peers"]
    lines = machine.header_lines(info)
    assert lines[0] == "rummy-bot bench" and len(lines) == len(info) + 1


# --- the search section ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def peers() -> tuple[RummikubPeer, RummikubPeer]:
    return RummikubPeer(), RummikubPeer(complete=True)


@pytest.mark.bench
def test_same_optimum_on_a_position_with_a_known_optimum(
    peers: tuple[RummikubPeer, RummikubPeer],
) -> None:
    # r1-r4 + a joker (5 tiles, or the joker in the 7s: 4 + 4) and 7s of three colours:
    # all 8 tiles go down. Stock rummikub-solver has no 4-5 tile run with a joker at an
    # end and no 4-tile group with a joker, so it places 7.
    hand = parse_cards("r1 r2 r3 r4 b7 y7 k7 jo")
    result = compare([hand], *peers)
    assert result.counts == [(8, 7, 8)]
    assert result.mismatches == 0 and result.peer_fewer == 1 and result.peer_more == 0
    assert result.illegal == 0
    # Nothing to meld: both say 0.
    assert compare([parse_cards("r1 y5 b9 k13")], *peers).counts == [(0, 0, 0)]


class _FixedPeer:
    def __init__(self, tiles: int) -> None:
        self.tiles = tiles

    def max_tiles(self, hand: Sequence[Card]) -> int:
        return self.tiles


@pytest.mark.bench
def test_the_optimum_check_really_compares() -> None:
    hand = parse_cards("r1 r2 r3 r4 b7 y7 k7 jo")
    wrong = compare([hand], _FixedPeer(9), _FixedPeer(5))
    assert wrong.counts == [(8, 9, 5)]
    assert wrong.mismatches == 1 and wrong.peer_more == 1 and wrong.peer_fewer == 0
    assert wrong.examples and "ours 8, stock 9, complete 5" in wrong.examples[0]
    assert compare([hand], _FixedPeer(8), _FixedPeer(8)).mismatches == 0


def test_positions_have_two_jokers_and_the_right_size() -> None:
    import random

    rng = random.Random(1)
    for hand in card_hands(rng, 20):
        assert len(hand) == 15 and hand.count(JOKER) == 2
        assert all(c.suit is not None and not c.suit.is_colour for c in hand if c != JOKER)
    for rack in racks(rng, 20):
        assert len(rack) in (14, 15) and rack.count(JOKER) == 2
        assert all(c.suit is not None and c.suit.is_colour for c in rack if c != JOKER)


def test_illegal_melds_counts_refused_melds_and_wrong_cards() -> None:
    r5, r6, r7 = parse_card("r5"), parse_card("r6"), parse_card("r7")
    good = Partition(((CardSpec(r5), CardSpec(r6), CardSpec(JOKER, r7)),), (), 0)
    assert illegal_melds((r5, r6, JOKER), good, ROMANIAN_RULES) == 0
    # Two real tiles and two Jolys: Romanian rules want two real tiles per Joly.
    two_jolys = Partition(
        (
            (
                CardSpec(JOKER, parse_card("r3")),
                CardSpec(JOKER, parse_card("r4")),
                CardSpec(r5),
                CardSpec(r6),
            ),
        ),
        (),
        0,
    )
    assert illegal_melds((r5, r6, JOKER, JOKER), two_jolys, ROMANIAN_RULES) == 1
    assert illegal_melds((r5, r6, JOKER, JOKER), two_jolys, RUMMIKUB_RULES) == 0
    assert illegal_melds((r5, r6, r7), good, ROMANIAN_RULES) == 1  # not the hand's cards


@pytest.mark.bench
def test_bench_quick_search_prints_machine_figures_and_the_comparison(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "bench.json"
    assert main(["bench", "--quick", "--only", "search", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("rummy-bot bench\n")
    for label in ("cpu", "ram", "python", "peers", "date"):
        assert f"  {label} " in text
    assert "== Best-meld search" in text
    assert "rummikub-solver" in text and "speed ratio" in text
    assert "Total time:" in text
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["config"] == {"quick": True, "peers": True, "seed": 2026, "sections": ["search"]}
    assert data["machine"]["cpu"]
    rows = {r["name"]: r for s in data["sections"] for r in s["rows"]}
    for kind in ("hands", "racks"):
        assert rows[f"{kind} vs rummikub-solver: optimum mismatches"]["value"] == 0
        assert rows[f"{kind} vs rummikub-solver: stock solver places more"]["value"] == 0
        assert rows[f"{kind} vs rummikub-solver: speed ratio"]["value"] > 0
        assert rows[f"{kind} vs rummikub-solver: speed ratio"]["target"] == 25.0
    median_row = rows["15-card hands, 2 jokers (German rules): median"]
    assert median_row["unit"] == "ms" and median_row["value"] > 0
    assert median_row["verdict"] == "ok" or median_row["verdict"].startswith("MISSED (x")
    mismatch_line = next(
        line
        for line in text.splitlines()
        if line.startswith("hands vs rummikub-solver: optimum mismatches")
    )
    assert " 0 " in mismatch_line


def test_bench_rejects_an_unknown_section(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--only", "search,nope"]) == 2
    assert "nope" in capsys.readouterr().err
    assert runner.parse_only("service-load, search") == ["search", "service_load"]
    assert runner.parse_only(None) == list(runner.SECTIONS)


# --- the runner ------------------------------------------------------------------------------


def _module(monkeypatch: pytest.MonkeyPatch, name: str, run: object) -> None:
    module = types.ModuleType(name)
    module.run = run  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, name, module)


def test_runner_reports_a_failing_section_as_a_note(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    def boom(config: BenchConfig) -> Section:
        raise RuntimeError("kaput")

    def fine(config: BenchConfig) -> list[Section]:
        return [
            Section("Fine one", [Row("speed", 4.0, "x", 3.0, "higher")]),
            Section("Fine two", [Row("slow", 1.0, "x", 3.0, "higher")]),
        ]

    _module(monkeypatch, "bench_fake_boom", boom)
    _module(monkeypatch, "bench_fake_fine", fine)
    registry = {
        "boom": "bench_fake_boom",
        "missing": "bench_fake_missing_module",
        "fine": "bench_fake_fine",
    }
    out, progress = io.StringIO(), io.StringIO()
    path = tmp_path / "r.json"
    code = runner.run_bench(
        BenchConfig(quick=True), None, json_path=path, out=out, progress=progress, registry=registry
    )
    assert code == 0
    text = out.getvalue()
    assert "== boom ==" in text and "failed: RuntimeError: kaput" in text
    assert "== missing ==" in text and "not run: the module is not available" in text
    assert "== Fine one ==" in text and "== Fine two ==" in text
    assert "Targets missed: 1" in text and "Fine two: slow: MISSED (x3.00)" in text
    assert "bench: fine done" in progress.getvalue()
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [s["title"] for s in data["sections"]] == ["boom", "missing", "Fine one", "Fine two"]
    assert data["missed"] == ["Fine two: slow"]
    speed = data["sections"][2]["rows"][0]
    assert speed == {
        "name": "speed",
        "value": 4.0,
        "unit": "x",
        "target": 3.0,
        "better": "higher",
        "met": True,
        "verdict": "ok",
        "note": "",
    }


def test_runner_reports_a_wrong_return_value(monkeypatch: pytest.MonkeyPatch) -> None:
    _module(monkeypatch, "bench_fake_wrong", lambda config: 42)
    results = runner.collect(BenchConfig(), ["x"], {"x": "bench_fake_wrong"})
    assert "returned int" in results[0][2][0].notes[0]


# --- playouts and AI (tiny runs) -------------------------------------------------------------


@pytest.mark.bench
def test_random_hands_play_complete_deals() -> None:
    rules = make_rules("basic", options={"reuses": 0})
    result = playouts.random_hands(rules, 2, seed=3)
    assert result.hands == 2 and result.actions > 0 and result.unfinished == 0
    assert result.split == ()  # the rates are measured without the clock reads per step
    timed = playouts.random_hands(rules, 2, seed=3, split=True)
    assert timed.actions == result.actions  # the same games, action for action
    assert [name for name, _ in timed.split] == ["deal", "view", "legal", "decide", "apply"]
    assert 0 < sum(v for _, v in timed.split) <= timed.seconds
    peer = playouts.rlcard_hands(2, seed=3)
    assert peer.hands == 2 and peer.actions > 0


def test_duel_counts_wins_of_finished_hands() -> None:
    result = ai.duel(make_rules("basic"), 4, seed=5)
    assert result.finished == 4
    assert 0 <= result.greedy_wins <= 4
    assert result.decision_ms and len(result.decision_ms) == len(result.decide_ms)
    assert result.win_share is not None and 0 <= result.win_share <= 100


def test_legal_latency_times_every_call_and_names_the_worst_position() -> None:
    result = legal.timed_games("romanian", 2, seed=11)
    assert result.games == 2 and len(result.ms) > 20
    worst, game, step, hand, options = result.worst
    assert worst == max(result.ms)
    assert game in (11, 12) and 0 <= step < legal.MAX_ACTIONS and hand > 0
    assert set(options) == set(legal.OPTION_SPACE["romanian"])


def test_a_timed_part_runs_on_a_frozen_heap_and_thaws_it_after() -> None:
    """The bench's timed calls see the collector as an engine worker does after its
    warm-up (bot.service.engine_work.warm_up): what was alive before is frozen, and the
    collector runs only between calls (bot.service.collector); both undone after."""
    before = gc.get_freeze_count()
    assert gc.isenabled()
    with worker_heap() as heap:
        assert heap.frozen > 1000 and gc.get_freeze_count() > 1000
        assert not gc.isenabled()
        assert heap.after_call() == 0 and heap.calls == 1
    assert gc.get_freeze_count() == before
    assert gc.isenabled()


def test_bench_quick_legal_section_reports_every_variant(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "--quick", "--only", "legal"]) in (0, 1)
    out = capsys.readouterr().out
    for variant in legal.GAMES:
        assert f"{variant}: p99" in out and f"{variant} max" in out
    assert "romanian going-out corpus: max" in out and "romanian going-out corpus max" in out


def test_strength_match_plays_each_deal_twice_with_swapped_seats() -> None:
    result = strength.match(make_rules("basic"), "greedy", "random", 3, seed=21)
    assert result.hands == 2 * len(result.pair_scores) and result.unfinished == 0
    assert len(result.pair_scores) == 3
    assert all(0 <= s <= 1 and (4 * s).denominator == 1 for s in result.pair_scores)
    assert result.share is not None and 0 <= result.share <= 100
    low, high = result.interval or (None, None)
    assert low is not None and high is not None and low <= result.share <= high
    assert result.decision_ms  # the first AI's decisions were timed
    assert len(result.pair_points) == 3 and result.points is not None
    p_low, p_high = result.points_interval or (None, None)
    assert p_low is not None and p_high is not None and p_low <= result.points <= p_high


def test_strength_expert_match_is_timed_and_says_where_its_slowest_decision_was() -> None:
    result = strength.match(make_rules("german"), "expert", "hard", 1, seed=4)
    assert len(result.pair_scores) + result.unfinished // 2 >= 1 and result.decision_ms
    assert result.slowest is not None and result.slowest[0] == 4
    assert result.slowest_ms == max(result.decision_ms)
    assert len(result.decision_cpu_ms) == len(result.decision_ms)
    assert all(c >= 0 for c in result.decision_cpu_ms) and sum(result.decision_cpu_ms) > 0
    assert ("expert", "hard", 55.0) in strength.MATCHES
    assert strength.MATCH_PAIRS[("expert", "hard")][0] * 2 >= 2400
    assert strength.DECISION_TARGET_MS["expert"] == 500.0


def test_strength_interval_needs_two_pairs_and_narrows_with_agreement() -> None:
    one = strength.Match("a", "b", pair_scores=[Fraction(1)])
    assert one.interval is None and one.share == 100.0
    same = strength.Match("a", "b", pair_scores=[Fraction(1, 2)] * 10, pair_points=[3.0] * 10)
    assert same.interval == (50.0, 50.0)
    assert same.points == 3.0 and same.points_interval == (3.0, 3.0)
