"""``/rummy play command:<text>``: any line of the command language, with the user's legal
moves as completions; and Romanian Rummy's pre-play step (doubla, announcements, offers,
ready) played from the buttons of the hand message.

Every message the fake Discord stores during these games is checked for cards another
seat holds hidden (the Truth of the reliability privacy tests), and so are the
completions each user gets."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.discord_bot.commands import CHOICE_TEXT_MAX, CHOICES_MAX, command_completions
from bot.discord_bot.components import hand_controls
from bot.discord_bot.hand import HandState
from bot.i18n import _, use_locale
from bot.interaction.hand import model_of
from bot.ports.model import ChatKey, Seat, SeatKind, Status, TableInfo, TableSettings
from bot.render.cards import card_text
from engine.cards import parse_card
from engine.commands import format_action
from engine.dealing import DealSpec, new_game
from engine.game import legal_actions
from engine.rules import make_rules
from engine.state import Phase
from engine.variants.romanian.actions import OfferDoubla
from engine.views import view_for
from tests.bot.discord.players import action_of, control
from tests.bot.discord.support import TIMEOUT, Bot, running_bot
from tests.bot.reliability.privacy import Truth, watch_repository
from tests.fakes.discord import FakeInteraction, FakeMessage, FakeUser
from tests.fakes.discord.components import walk

#: A Romanian deal (two seats) where Alice plays first and holds the pairs 🟡4 and ⚫13,
#: and Bob holds the pairs 🟡6 and 🔵12 and the twin of the face-up tile ⚫6.
ROMANIAN_SEED = 1003


# --- privacy: every message version and every completion ----------------------------------


#: The fixed examples of the bad-card error ("7h 10d qs ac jk") name no one's cards.
_EXAMPLES = re.compile(r"\((?:examples|Beispiele): [^)]*\)")


def _shown(message: FakeMessage) -> str:
    lines = [_EXAMPLES.sub("", message.content)]
    for _path, item in walk(message.components):
        lines += [str(item[k]) for k in ("label", "placeholder") if item.get(k)]
        lines += [str(o.get("label", "")) for o in item.get("options") or []]
    return "\n".join(lines)


def _reader(message: FakeMessage) -> str | None:
    return None if message.viewer is None else f"discord:{message.viewer.id}"


def watch(bot: Bot) -> Truth:
    """A Truth that sees every committed state and checks every message version the
    fake Discord stores (public: no hidden card; ephemeral: none of another seat)."""
    truth = Truth("discord")
    watch_repository(bot.service.repo, truth)
    server = bot.server
    create, edit = server.create_message, server.edit_message

    def created(*args: Any, **kwargs: Any) -> FakeMessage:
        message = create(*args, **kwargs)
        truth.check(f"message {message.id}", _reader(message), _shown(message))
        return message

    def edited(message: FakeMessage, payload: Any) -> None:
        edit(message, payload)
        truth.check(f"message {message.id} (edited)", _reader(message), _shown(message))

    server.create_message = created  # type: ignore[method-assign]
    server.edit_message = edited  # type: ignore[method-assign]
    return truth


# --- acting -------------------------------------------------------------------------------


async def play(bot: Bot, user: FakeUser, command: str) -> FakeMessage:
    """``/rummy play command:<command>``; the (private) answer."""
    done = await bot.slash(user, bot.world.text, "play", {"command": command})
    (answer,) = done.messages()
    assert answer.ephemeral and answer.viewer is user, answer.content
    return answer


async def completions(
    bot: Bot, user: FakeUser, typed: str, truth: Truth | None = None
) -> list[str]:
    """What ``user`` is offered while typing ``typed`` into ``/rummy play command``."""
    typing: FakeInteraction = await bot.server.autocomplete(
        user, bot.world.text, "rummy", {"command": typed}, "command", subcommand="play"
    )
    await typing.wait_response(TIMEOUT)
    choices = typing.choices or []
    assert len(choices) <= CHOICES_MAX
    assert all(c["name"] == c["value"] and len(c["name"]) <= CHOICE_TEXT_MAX for c in choices)
    names = [c["name"] for c in choices]
    if truth is not None:
        truth.check(f"completions of {user.username}", f"discord:{user.id}", "\n".join(names))
    return names


def buttons(message: FakeMessage) -> dict[str, str]:
    """The hand message's buttons of the hand model's controls: label -> custom id."""
    return {
        b["label"]: b["custom_id"]
        for b in message.buttons()
        if re.fullmatch(r"o\d+", action_of(b["custom_id"]))
    }


def actions(message: FakeMessage) -> list[str]:
    return [action_of(c) for c in message.custom_ids()]


async def open_table(bot: Bot, variant: str, options: str) -> None:
    """Alice opens a table in #rummy, Bob joins, Alice starts."""
    w = bot.world
    await bot.slash(w.alice, w.text, "new", {"variant": variant, "options": options})
    table = bot.table_message(w.text)
    await bot.click(w.bob, table, control(table, "join"))
    await bot.click(w.alice, table, control(table, "start"))


async def version(bot: Bot) -> int:
    info = await bot.entry.table_info(bot.key(bot.world.text))
    assert info is not None
    return info.version


async def legal(bot: Bot, seat: int) -> list[str]:
    stored = await bot.service.repo.active_table(bot.key(bot.world.text))
    assert stored is not None and stored.state is not None
    return [format_action(a) for a in legal_actions(stored.state, seat)]


# --- the tests ----------------------------------------------------------------------------


async def test_romanian_preplay_by_command_and_hand_buttons(tmp_path: Path) -> None:
    """preplay=on: Alice says doubla and ready with /rummy play; Bob announces the
    face-up twin, a doubla and offers a swap with his hand buttons; Alice accepts with
    hers (her open hand message was redrawn for it), Bob presses Ready, and the first
    player discards. The completions are always the user's own legal commands."""
    async with running_bot(tmp_path) as bot:
        truth = watch(bot)
        w = bot.world
        bot.seed(ROMANIAN_SEED)
        switched = await play(bot, w.bob, "lang en")  # a table verb through /rummy play
        assert switched.content == "Language: English."
        await open_table(bot, "romanian", "deals=1")
        stored = await bot.service.repo.active_table(bot.key(w.text))
        assert stored is not None and stored.state is not None
        assert stored.state.current == 0 and stored.state.extra.preplay is not None

        # The table message offers no move before play: they are on the hand messages.
        table = bot.table_message(w.text)
        assert actions(table) == ["hand"]

        # Completions: Alice's legal commands, filtered; nothing for Bob or Carol now.
        assert (
            await completions(bot, w.alice, "", truth)
            == await legal(bot, 0)
            == ["doubla", "doubla high", "doubla low", "ready"]
        )
        assert await completions(bot, w.alice, "DOUBLA h", truth) == ["doubla high"]
        assert await completions(bot, w.alice, "high", truth) == ["doubla high"]
        assert await completions(bot, w.bob, "", truth) == []
        assert await completions(bot, w.carol, "", truth) == []

        hand = await play(bot, w.alice, "doubla")
        assert "Done: doubla" in hand.content and "Your hand" in hand.content
        assert "Before play" in hand.content
        assert list(buttons(hand)) == ["Ready"]
        assert not {"meld", "disc", "draw", "take"} & set(actions(hand))
        assert await completions(bot, w.alice, "", truth) == ["ready"]
        alice_hand = await play(bot, w.alice, "ready")
        assert "Before play: Bob may announce a doubla" in alice_hand.content
        assert buttons(alice_hand) == {}
        assert await completions(bot, w.alice, "", truth) == []

        # Bob plays his part from the hand message's buttons.
        shown = await bot.click(w.bob, table, control(table, "hand"))
        bob_hand = shown.original
        assert bob_hand is not None and bob_hand.ephemeral and bob_hand.viewer is not None
        assert bob_hand.viewer.id == w.bob.id
        assert list(buttons(bob_hand)) == [
            "Doubla",
            "Doubla (high)",
            "Doubla (low)",
            "Announce the face-up twin",
            "Ready",
        ]
        assert await completions(bot, w.bob, "", truth) == await legal(bot, 1)
        before = await version(bot)
        await bot.click(w.bob, bob_hand, buttons(bob_hand)["Announce the face-up twin"])
        await bot.click(w.bob, bob_hand, buttons(bob_hand)["Doubla"])
        assert await version(bot) == before + 2
        y6, b12 = card_text(parse_card("y6")), card_text(parse_card("b12"))
        assert list(buttons(bob_hand)) == [
            f"Offer your {y6} pair to Alice",
            f"Offer your {b12} pair to Alice",
            "Ready",
        ]
        await bot.click(w.bob, bob_hand, buttons(bob_hand)[f"Offer your {y6} pair to Alice"])
        assert "Before play: Alice may announce a doubla" in bob_hand.content

        # Alice's open hand message now asks her to answer the offer.
        y4, k13 = card_text(parse_card("y4")), card_text(parse_card("k13"))
        assert "Bob offers you a doubla swap" in alice_hand.content
        assert list(buttons(alice_hand)) == [
            "Reject the swap",
            f"Accept, giving your {y4} pair",
            f"Accept, giving your {k13} pair",
        ]
        await bot.click(w.alice, alice_hand, buttons(alice_hand)[f"Accept, giving your {y4} pair"])
        stored = await bot.service.repo.active_table(bot.key(w.text))
        assert stored is not None and stored.state is not None
        assert stored.state.hands[0].count(parse_card("y6")) == 2
        assert stored.state.hands[1].count(parse_card("y4")) == 2

        # Bob's hand message shows his new pair; Ready ends the step.
        assert f"{y4} {y4}" in bob_hand.content
        assert list(buttons(bob_hand)) == ["Ready"]
        await bot.click(w.bob, bob_hand, buttons(bob_hand)["Ready"])
        stored = await bot.service.repo.active_table(bot.key(w.text))
        assert stored is not None and stored.state is not None
        assert stored.state.extra.preplay is None
        assert stored.state.phase is Phase.PLAY and stored.state.current == 0
        # The first player begins by discarding: no Draw or Take on the table message.
        assert actions(bot.table_message(w.text)) == ["hand"]

        # The first player discards, as typed.
        discards = await completions(bot, w.alice, "discard", truth)
        assert discards and all(c.startswith("discard ") for c in discards)
        assert set(discards) <= set(await legal(bot, 0))
        before = await version(bot)
        after = await play(bot, w.alice, discards[0])
        assert f"Done: {discards[0]}" in after.content and "Bob to play." in after.content
        assert await version(bot) == before + 1
        assert truth.problems == [], "\n".join(truth.problems)
        assert truth.checked["private while hiding"] >= 5


async def test_rummy500_deep_take_and_meld_typed(tmp_path: Path) -> None:
    """Rummy 500: ``take 7h`` takes 7♥ from under two cards (with them), then
    ``meld 7h 8h 9h`` plays it; the completions offer the deep take."""
    async with running_bot(tmp_path) as bot:
        truth = watch(bot)
        w = bot.world
        await open_table(bot, "500", "")
        key = bot.key(w.text)
        stored = await bot.service.repo.active_table(key)
        assert stored is not None and stored.state is not None
        state = new_game(
            stored.state.rules,
            list(stored.state.players),
            dealer=1,
            deal=DealSpec.parse(
                ["8h 9h 2c 4d 6s kd qc", "3c 5d 7s 9c jd ks ac"], "7h", "2d 3d 10s 10c 4h 5h"
            ),
        )
        await bot.service.repo.commit(
            replace(stored, state=state, version=stored.version + 1), stored.version
        )
        for user, command in (
            (w.alice, "draw"),
            (w.alice, "discard 2c"),
            (w.bob, "draw"),
            (w.bob, "discard 3c"),
        ):
            await play(bot, user, command)
        assert await completions(bot, w.alice, "take", truth) == ["take", "take 7h"]
        assert await completions(bot, w.alice, "7h", truth) == ["take 7h"]
        taken = await play(bot, w.alice, "take 7h")
        assert "Done: take 7h" in taken.content
        hearts = [card_text(parse_card(c)) for c in ("7h", "8h", "9h")]
        assert all(c in taken.content for c in hearts)
        assert "meld 7h 8h 9h" in await completions(bot, w.alice, "meld 7", truth)
        melded = await play(bot, w.alice, "meld 7h 8h 9h")
        stored = await bot.service.repo.active_table(key)
        assert stored is not None and stored.state is not None
        assert [str(m) for m in stored.state.melds] == ["7h 8h 9h"]
        assert sorted(map(str, stored.state.hands[0])) == sorted(
            ["2c", "2d", "3c", "4d", "6s", "kd", "qc"]
        )
        assert "Melds:" in bot.table_message(w.text).content and "Done" in melded.content
        assert truth.problems == [], "\n".join(truth.problems)


async def test_refused_commands_are_localised_and_change_nothing(tmp_path: Path) -> None:
    """Out of turn, a bad card, an unknown verb, someone without a seat: the answer is the
    error in the user's language (Bob's Discord is German, Alice's English), without a
    hand message, and the table stays as it was; a command that works gets the hand
    message. Completions never offer what would be refused."""
    async with running_bot(tmp_path) as bot:
        truth = watch(bot)
        w = bot.world
        await open_table(bot, "basic", "deals=1")
        stored = await bot.service.repo.active_table(bot.key(w.text))
        assert stored is not None and stored.state is not None
        seat = stored.state.current
        first, second = (w.alice, w.bob) if seat == 0 else (w.bob, w.alice)
        before = await version(bot)

        def expected(user: FakeUser, msgid: str, **params: str) -> str:
            with use_locale("de" if user is w.bob else "en"):
                return _(msgid).format(**params)

        refusals = [
            (
                second,
                "draw",
                expected(
                    second,
                    "It is not your turn ({player} is to play).",
                    player=first.global_name or "",
                ),
            ),
            (w.carol, "draw", expected(w.carol, "You are not playing at this table.")),
        ]
        for user in (w.alice, w.bob):
            refusals += [
                (
                    user,
                    "discard zz",
                    expected(
                        user, "'{text}' is not a card (examples: 7h 10d qs ac jk).", text="zz"
                    ),
                ),
                (
                    user,
                    "fly away",
                    expected(
                        user,
                        "Unknown command '{verb}'. Type help for the list of commands.",
                        verb="fly",
                    ),
                ),
            ]
        for user, command, text in refusals:
            answer = await play(bot, user, command)
            assert answer.content == text, (user.username, command)
            assert not answer.custom_ids(), "a refusal brings no hand message"
            assert await version(bot) == before, command
        german = {t for u, _c, t in refusals if u is w.bob}
        english = {t for u, _c, t in refusals if u is w.alice}
        assert len(german) >= 2 and not german & english

        assert await completions(bot, second, "", truth) == []
        assert await completions(bot, first, "", truth) == ["draw", "take"]
        answer = await play(bot, first, "draw")
        assert answer.custom_ids() and await version(bot) == before + 1
        offered = await completions(bot, first, "", truth)
        assert offered and set(offered) <= set(await legal(bot, seat))
        assert truth.problems == [], "\n".join(truth.problems)


@pytest.mark.parametrize("defer_after", [1.0, 0.0], ids=["answer", "defer"])
async def test_play_runs_table_verbs_and_hand_too(tmp_path: Path, defer_after: float) -> None:
    """The whole chat language: ``join`` in a lobby (German alias), ``hand`` during the
    game (the interactive hand message), ``rules`` (in pieces); a game move before the
    start is refused; answered at once or after a deferral."""
    async with running_bot(tmp_path, defer_after=defer_after) as bot:
        w = bot.world
        await bot.slash(w.alice, w.text, "new")
        refused = await play(bot, w.alice, "draw")
        assert refused.content == "The game has not started yet."
        joined = await play(bot, w.bob, "beitreten")
        assert "Tisch" in joined.content
        info = await bot.entry.table_info(bot.key(w.text))
        assert info is not None and len(info.seats) == 2
        await play(bot, w.alice, "start")
        shown = await play(bot, w.alice, "hand")
        assert "Your hand" in shown.content and "c0" in actions(shown)
        # The rules are longer than one message: they come in pieces (so does /rummy rules).
        for done in (
            await bot.slash(w.carol, w.text, "play", {"command": "rules"}),
            await bot.slash(w.carol, w.text, "rules"),
        ):
            sent = done.messages()
            assert len(sent) >= 2 and all(m.ephemeral and m.viewer is w.carol for m in sent)
            assert all(0 < len(m.content) <= 2000 for m in sent)


def test_completions_filter_and_fit_discord() -> None:
    """Prefix matches first, then those with every typed word; at most 25; a command too
    long for a choice is left out, never cut."""
    commands = [
        "draw",
        "take",
        "take 7h",
        "meld 7h 8h 9h",
        "discard 7h",
        "discard ks",
        "meld " + " ".join(["7h"] * 40),
    ] + [f"layoff {n}h 1" for n in range(2, 10)]
    names = [c.name for c in command_completions(commands, "")]
    assert len(commands[6]) > CHOICE_TEXT_MAX and commands[6] not in names
    assert [c.name for c in command_completions(commands, "7h")] == [
        "take 7h",
        "meld 7h 8h 9h",
        "discard 7h",
        "layoff 7h 1",
    ]
    assert [c.name for c in command_completions(commands, "lay 1")] == [
        f"layoff {n}h 1" for n in range(2, 10)
    ]
    assert [c.name for c in command_completions(commands, "disc k")] == ["discard ks"]
    assert [c.name for c in command_completions(commands, "7h 1")] == ["layoff 7h 1"]
    assert [c.name for c in command_completions(commands, "  Take ")] == ["take", "take 7h"]
    many = [f"discard {n}" for n in range(40)]
    assert len(command_completions(many, "disc")) == CHOICES_MAX


def test_many_controls_stay_within_discords_limits() -> None:
    """Before play with pairs and partners to offer them to: more controls than a row of
    buttons go into one select (25 options at most); at most 5 rows of 5, every custom
    id fits and is unique."""
    state = new_game(make_rules("romanian"), ["Ana", "Ben", "Cy", "Dora"], seed=ROMANIAN_SEED)
    seat = state.current
    view = view_for(state, seat)
    seats = tuple(
        Seat(SeatKind.HUMAN, name, f"discord:{n}") for n, name in enumerate(view.table.players)
    )
    info = TableInfo(
        7,
        ChatKey("discord", "1"),
        Status.PLAYING,
        "romanian",
        None,
        (),
        "discord:0",
        seats,
        TableSettings(),
        3,
    )
    # As many offers as a 4-seat table can list: every pair to each of three partners.
    pairs = sorted({c for c in view.hand if view.hand.count(c) == 2} or set(view.hand[:4]), key=str)
    legal = [
        *legal_actions(state, seat),
        *(OfferDoubla(seat, tile, name) for tile in pairs for name in ("Ben", "Cy", "Dora")),
    ]
    with use_locale("en"):
        model = model_of(info, view, legal, None)
        controls = hand_controls(info, model, HandState.fresh(view.hand))
    assert len(model.controls) > 5
    rows = controls.to_components()
    assert len(rows) <= 5 and all(len(r["components"]) <= 5 for r in rows)
    items = [c for r in rows for c in r["components"]]
    custom_ids = [c["custom_id"] for c in items]
    assert len(set(custom_ids)) == len(custom_ids) and all(len(c) <= 100 for c in custom_ids)
    [menu] = [c for c in items if action_of(c["custom_id"]) == "mc"]
    assert len(menu["options"]) == min(len(model.controls), 25)
    assert not [c for c in custom_ids if re.fullmatch(r"o\d+", action_of(c))]
    labels = [c.get("label") for c in items if c["type"] == 2]
    assert labels[-3:] == ["Sort: by rank", "Hint", "Refresh"]
