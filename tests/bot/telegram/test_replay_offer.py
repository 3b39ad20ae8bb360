"""The Telegram group's offer of a replay (docs/replay.md): a Replay button to the Main
Mini App's ``startapp=r<table>`` between deals and under the ended game, only where the web
table runs; the page's start parameter and ``?r=`` name the table to replay."""

from __future__ import annotations

from dataclasses import replace

from bot.i18n import use_locale
from bot.ports.model import ChatKey, Status, TableInfo, TableSettings
from bot.ports.web_links import (
    WebLinks,
    replay_app_url,
    replay_link,
    replay_of_start_param,
    table_of_start_param,
)
from bot.telegram_bot.keyboards import table_keyboard
from engine.dealing import new_game
from engine.rules import make_rules
from engine.state import Phase
from engine.views import public_view

WEB = WebLinks("https://rummy.example.org/web", telegram=True)


def test_replay_links_only_where_the_web_table_runs() -> None:
    assert replay_link(WEB, "rummy_bot", 12) == "https://t.me/rummy_bot?startapp=r12"
    assert replay_app_url(WEB, 12) == "https://rummy.example.org/web/tg/?r=12"
    assert replay_link(None, "rummy_bot", 12) is None
    assert replay_app_url(WebLinks("https://x.example/web"), 12) is None
    assert replay_of_start_param("r12") == 12 and table_of_start_param("r12") is None
    assert replay_of_start_param("t12") is None and replay_of_start_param("rx") is None


def _info(status: Status) -> TableInfo:
    return TableInfo(
        7, ChatKey("telegram", "-100"), status, "basic", None, (), "1", (), TableSettings(), 3
    )


def test_a_replay_button_under_the_ended_game_and_between_deals() -> None:
    state = new_game(make_rules("basic"), ["ana", "ben"], seed=1)
    view = public_view(state)
    link = replay_link(WEB, "rummy_bot", 7)
    for locale, label in (("en", "Replay"), ("de", "Wiederholung")):
        with use_locale(locale):
            ended = table_keyboard(_info(Status.FINISHED), view, None, None, link)
            assert ended is not None
            [[button]] = ended.inline_keyboard
            assert (button.text, button.url) == (label, link)
            between = table_keyboard(
                _info(Status.PLAYING), replace(view, phase=Phase.HAND_OVER), None, None, link
            )
            assert between is not None
            assert [b.url for row in between.inline_keyboard for b in row][-1] == link
            playing = table_keyboard(_info(Status.PLAYING), view, None, None, link)
            assert playing is not None
            assert link not in [b.url for row in playing.inline_keyboard for b in row]
    assert table_keyboard(_info(Status.FINISHED), view, None, None, None) is None
