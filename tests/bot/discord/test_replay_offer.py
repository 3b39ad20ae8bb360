"""Discord's offer of a replay (docs/replay.md): under the finished game's table message a
Replay button that launches the activity (which replays the channel's last game), only
where the web table runs."""

from __future__ import annotations

from bot.discord_bot.components import ACTIVITY, table_controls
from bot.i18n import use_locale
from bot.ports.model import ChatKey, Status, TableInfo, TableSettings
from engine.dealing import new_game
from engine.rules import make_rules
from engine.views import public_view


def _info(status: Status) -> TableInfo:
    return TableInfo(
        7, ChatKey("discord", "55"), status, "basic", None, (), "1", (), TableSettings(), 3
    )


def test_a_replay_button_under_the_finished_game() -> None:
    view = public_view(new_game(make_rules("basic"), ["ana", "ben"], seed=1))
    for locale, label in (("en", "Replay"), ("de", "Wiederholung")):
        with use_locale(locale):
            controls = table_controls(_info(Status.FINISHED), view, activity=True)
            assert controls is not None
            [only] = controls.children
            assert only.item.label == label  # type: ignore[attr-defined]
            assert f":{ACTIVITY}:" in str(only.item.custom_id)  # type: ignore[attr-defined]
    assert table_controls(_info(Status.FINISHED), view, activity=False) is None
    assert table_controls(_info(Status.CANCELLED), view, activity=True) is None
