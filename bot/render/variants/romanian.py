"""Text for Romanian Rummy (:mod:`engine.variants.romanian`): its own events and the lines
its table shows besides the shared ones (the face-up tile, the discard row, the pre-play
step, players with three tiles or fewer, what the seat to play owes)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from bot.i18n import _
from bot.render.cards import card_text, cards_text, points_text, signed_points_text
from engine.cards import Card
from engine.state import Phase
from engine.variants.romanian.actions import (
    AnnounceDoubla,
    AnnounceFaceUp,
    AnswerDoubla,
    ExchangeJoly,
    OfferDoubla,
    Ready,
    TakeFaceUp,
)
from engine.variants.romanian.events import (
    DoublaAnnounced,
    DoublaAnswered,
    DoublaOffered,
    FaceUpAnnounced,
    FewTilesLeft,
    GameBlocked,
    JolyExchanged,
    PlayBegins,
    PlayerReady,
    ScoreSheet,
    SeatScore,
    TookFaceUp,
    TookFromRow,
)
from engine.variants.romanian.variant import PublicExtra
from engine.views import PlayerView, PublicView


def _hint(hint: str) -> str:
    if hint == "high":
        return _("high")
    if hint == "low":
        return _("low")
    return ""


def action_label(action: object) -> tuple[str, Literal["go", "stop", "plain"]] | None:
    """Button words of a pre-play move, e.g. ``offer r7 ben`` -> "Offer your 🔴7 pair to
    ben" (romanian-rummy.de.txt, the doubla swap before play), or ``None``."""
    match action:
        case Ready():
            return _("Ready"), "go"
        case AnnounceDoubla(hint=hint):
            labels = {"high": _("Doubla (high)"), "low": _("Doubla (low)")}
            return labels.get(hint or "", _("Doubla")), "plain"
        case OfferDoubla(tile=tile, partner=partner):
            return _("Offer your {tile} pair to {name}").format(
                tile=card_text(tile), name=partner
            ), "plain"
        case AnswerDoubla(tile=None):
            return _("Reject the swap"), "stop"
        case AnswerDoubla(tile=tile) if tile is not None:
            return _("Accept, giving your {tile} pair").format(tile=card_text(tile)), "plain"
        case AnnounceFaceUp():
            return _("Announce the face-up twin"), "plain"
        case TakeFaceUp():
            return _("Take the face-up tile to go out"), "plain"
        case ExchangeJoly(tiles=tiles, meld=meld):
            return _("Put {tiles} in place of the Joly of {number}").format(
                tiles=cards_text(tiles), number=meld + 1
            ), "plain"
    return None


def hand_cards(action: object) -> tuple[Card, ...] | None:
    """The rack tiles a Joly exchange puts down (selected on the hand screen)."""
    if isinstance(action, ExchangeJoly):
        return tuple(action.tiles)
    return None


def phase_line(view: PlayerView) -> str | None:
    """The hand screen's line during pre-play (romanian-rummy.de.txt: before the first
    discard each player in turn may announce a doubla, offer or answer a swap and announce
    the face-up twin): whose step it is and what it offers; ``None`` otherwise."""
    table = view.table
    extra = table.extra
    if not isinstance(extra, PublicExtra) or not extra.preplay or table.current is None:
        return None
    if table.current == view.seat:
        if extra.offer is not None and extra.offer[1] == view.seat:
            return _(
                "{player} offers you a doubla swap: accept it with one of your pairs or reject it."
            ).format(player=table.players[extra.offer[0]])
        return _(
            "Before play: you may announce a doubla, offer or answer a swap, announce "
            "the face-up twin, then say ready."
        )
    return _(
        "Before play: {name} may announce a doubla, offer a doubla swap or announce the "
        "face-up twin."
    ).format(name=table.players[table.current])


def render(event: object, players: Sequence[str]) -> str | None:
    """One line for a Romanian event, or ``None`` for any other event.

    Examples (English): "ana announces a doubla (high).", "ben offers ana a doubla swap.",
    "ana takes 🔴7 from the discard row with 🔵2 ⚫9 and must meld 🔴7 at once.",
    "cem takes the face-up tile 🟡4 to go out.", "ana has 3 tiles left."
    """
    text = _preplay_event(event, players)
    return text if text is not None else _play_event(event, players)


def _preplay_event(event: object, players: Sequence[str]) -> str | None:
    """The line of a pre-play event (doublas, the face-up twin, ready, play begins), or
    ``None`` for any other event."""
    match event:
        case DoublaAnnounced(seat=seat, hint=hint) if hint:
            return _("{name} announces a doubla ({hint}).").format(
                name=players[seat], hint=_hint(hint)
            )
        case DoublaAnnounced(seat=seat):
            return _("{name} announces a doubla.").format(name=players[seat])
        case DoublaOffered(seat=seat, partner=partner):
            return _("{name} offers {partner} a doubla swap.").format(
                name=players[seat], partner=players[partner]
            )
        case DoublaAnswered(seat=seat, partner=partner, accepted=True):
            return _("{partner} and {name} swap their doublas face down.").format(
                name=players[seat], partner=players[partner]
            )
        case DoublaAnswered(seat=seat, partner=partner):
            return _("{partner} rejects the doubla swap of {name}.").format(
                name=players[seat], partner=players[partner]
            )
        case FaceUpAnnounced(seat=seat, tile=tile):
            return _("{name} holds the twin of the face-up tile {tile} (+25).").format(
                name=players[seat], tile=card_text(tile)
            )
        case PlayerReady(seat=seat):
            return _("{name} is ready.").format(name=players[seat])
        case PlayBegins(seat=seat):
            return _("Play begins: {name} discards first.").format(name=players[seat])
    return None


def _play_event(event: object, players: Sequence[str]) -> str | None:
    """The line of an event of play (takes from the row or the face-up tile, a Joly
    exchange, few tiles left, a blocked game, the score sheet), or ``None`` for any
    other event."""
    match event:
        case TookFromRow(seat=seat, tile=tile, tiles=tiles):
            return _(
                "{name} takes {tile} from the discard row with the tiles after it "
                "({tiles}) and must meld {tile} at once."
            ).format(name=players[seat], tile=card_text(tile), tiles=cards_text(tiles))
        case TookFaceUp(seat=seat, tile=tile):
            return _("{name} takes the face-up tile {tile} to go out.").format(
                name=players[seat], tile=card_text(tile)
            )
        case JolyExchanged(seat=seat, index=index, tiles=tiles):
            return _(
                "{name} puts {tiles} in place of the Joly of meld {number} and must meld "
                "the Joly at once."
            ).format(name=players[seat], tiles=cards_text(tiles), number=index + 1)
        case FewTilesLeft(seat=seat, count=count):
            return _("{name} announces: tiles left: {n}.").format(name=players[seat], n=count)
        case GameBlocked():
            return _(
                "Nobody can place a tile any more: no tile in play makes a meld, fits a "
                "meld or replaces a Joly. The game ends without a winner."
            )
        case ScoreSheet(lines=lines):
            return _("Score: {parts}.").format(
                parts="; ".join(
                    f"{players[seat]}: {_score_chain(line)}" for seat, line in enumerate(lines)
                )
            )
    return None


def _score_chain(line: SeatScore) -> str:
    """One seat's score as romanian-rummy.de.txt adds it up ("den Wert der Steine, die er
    gemeldet hat ... vermindert um den Wert der Steine, die sie noch auf ihren Ständern
    haben"; Joly +50; no meld -200; win, all at once and face-up twin as bonus): only the
    terms that count, e.g. "melded 45, Jolys +50, rack -12 = 83", "no meld -200"."""
    terms = [
        (line.melded, _("melded {n}")),
        (line.jolys, _("Jolys {n}")),
        (-line.rack, _("rack {n}")),
        (line.no_meld, _("no meld {n}")),
        (line.bonus, _("bonus {n}")),
    ]
    shown = [
        label.format(n=signed_points_text(value) if i else points_text(value))
        for i, (value, label) in enumerate(t for t in terms if t[0] != 0)
    ]
    if not shown:
        return "0"
    chain = ", ".join(shown)
    if line.doubled:
        return _("{chain}, doubled = {total}").format(chain=chain, total=line.total)
    return chain if len(shown) == 1 else f"{chain} = {line.total}"


def turn_line(view: PublicView) -> str | None:
    """Whose turn it is and what the step is, where Romanian differs from the shared line
    (romanian-rummy.de.txt): pre-play ("Vor dem Spiel"), the first player's opening
    discard ("Der Spieler rechts vom Geber ... legt einen Stein ab"), drawing from the
    wall or the discard row. ``None`` for other variants and between games."""
    extra = view.extra
    if (
        not isinstance(extra, PublicExtra)
        or view.current is None
        or view.phase not in (Phase.DRAW, Phase.PLAY)
    ):
        return None
    name = view.players[view.current]
    if extra.preplay:
        return _(
            "Before play: {name} may announce a doubla, offer a doubla swap or announce the "
            "face-up twin."
        ).format(name=name)
    if view.phase is Phase.DRAW:
        if len(view.discard) > 1:  # the row's first tile is never taken
            return _("{name} to play: draw from the wall or take from the discard row.").format(
                name=name
            )
        return _("{name} to play: draw from the wall.").format(name=name)
    if not view.discard and extra.owed is None:
        # the row's first tile stays in it for good: an empty row means play has not begun
        return _("{name} begins play: discard one tile.").format(name=name)
    return None


def table_lines(view: PublicView) -> list[str]:
    """The Romanian lines of the table screen (nothing for other variants)."""
    extra = view.extra
    if not isinstance(extra, PublicExtra):
        return []
    return [*_tile_lines(view, extra), *_seat_lines(view, extra), *_turn_lines(view, extra)]


def _tile_lines(view: PublicView, extra: PublicExtra) -> list[str]:
    """The face-up tile and the discard row (its first tile in brackets)."""
    lines = []
    if extra.face_up is not None:
        lines.append(_("Face-up tile: {tile}").format(tile=card_text(extra.face_up)))
    if view.discard:
        first, rest = view.discard[0], view.discard[1:]
        lines.append(
            _("Discard row: [{first}] {tiles}")
            .format(first=card_text(first), tiles=cards_text(rest) if rest else "")
            .rstrip()
        )
    else:
        lines.append(_("Discard row: empty"))
    return lines


def _seat_lines(view: PublicView, extra: PublicExtra) -> list[str]:
    """What the seats said or showed: doublas before play, the face-up twin, low racks."""
    lines = _doublas_line(view, extra)
    announced = [view.players[s] for s, a in enumerate(extra.announced) if a]
    if announced:
        lines.append(_("Face-up twin announced: {names}").format(names=", ".join(announced)))
    low = [f"{view.players[s]} {n}" for s, n in enumerate(extra.low) if n is not None]
    if low:
        lines.append(_("Three tiles or fewer: {players}").format(players=", ".join(low)))
    return lines


def _doublas_line(view: PublicView, extra: PublicExtra) -> list[str]:
    """Before play, the seats that announced a doubla (with their hint); nothing when
    none did or play has begun."""
    if not extra.preplay or view.current is None:
        return []
    doublas = [
        f"{view.players[s]} ({_hint(h)})" if h else view.players[s]
        for s, h in enumerate(extra.doublas)
        if h is not None
    ]
    if not doublas:
        return []
    return [_("Doublas: {names}").format(names=", ".join(doublas))]


def _turn_lines(view: PublicView, extra: PublicExtra) -> list[str]:
    """What the player to move still owes: the opening, a tile taken from the row, going
    out with the face-up tile."""
    current = view.current
    if current is None:
        return []
    lines = []
    if (
        not extra.preplay
        and view.phase in (Phase.DRAW, Phase.PLAY)
        and not view.has_melded[current]
    ):
        # romanian-rummy.de.txt: "Bei der ersten Meldung ... mindestens eine eine Folge ...
        # mindestens 50 Punkte betragen"; laid down in one turn, so nothing counts until then
        lines.append(
            _("{name}'s opening: 0 of {needed} points (at least one run, all in one turn).").format(
                name=view.players[current], needed=view.rules.get("opening")
            )
        )
    if extra.owed is not None:
        lines.append(
            _("{name} must meld {tile} now.").format(
                name=view.players[current], tile=card_text(extra.owed)
            )
        )
    if extra.going_out:
        lines.append(
            _("{name} took the face-up tile and goes out this turn.").format(
                name=view.players[current]
            )
        )
    return lines
