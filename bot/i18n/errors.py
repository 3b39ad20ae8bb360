"""Engine errors in the player's language.

Every :class:`engine.errors.EngineError` carries a stable ``code``, the
``params`` its message needs and its English ``template``, written once in the engine
and marked there as a msgid. :func:`localize_error` translates that template into
:data:`bot.i18n.current_locale` and fills in the params; :data:`ERROR_TEMPLATES` keeps
only what is not an engine template (the bot's own refusals, codes whose engine wording
has other params). A few codes carry English fragments (the phase a move needs, why a
meld is invalid, what an option accepts); those are rebuilt here from their
stable parts (``phase``, ``reason_code``, the option's spec) so that no English
leaks into a translated message. An unknown code falls back to the engine's
English ``error.message``.

Example::

    >>> from engine.errors import CardNotInHand
    >>> from bot.i18n import use_locale
    >>> with use_locale("de"):
    ...     localize_error(CardNotInHand(card="7h"))
    '7h ist nicht auf deiner Hand.'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.i18n import N_, _
from engine.errors import EngineError
from engine.rules import Option

__all__ = ["ERROR_TEMPLATES", "error_template", "localize_error"]

ERROR_TEMPLATES: Mapping[str, str] = {
    # --- illegal moves (engine.errors.IllegalMove subclasses)
    "wrong_phase": N_("You cannot {action} now: {expected}"),
    "meld_limit": N_("Only one new meld per turn is allowed."),
    "invalid_joker_swap": N_("No joker swap: {reason}"),
    # --- German Rommé (engine.variants.german.errors)
    # --- Rummy 500 (engine.variants.rummy500.errors)
    # --- Romanian Rummy (engine.variants.romanian.errors, .commands)
    # --- card notation and text commands (engine.commands)
    "bad_card": N_("'{text}' is not a card (examples: 7h 10d qs ac jk)."),
    "bad_command": N_("That command was not understood. Type help for the commands."),
    # --- rule options (engine.rules, engine.variants, engine.dealing)
    "bad_option": N_("Option {option}: '{value}' is not allowed; expected {accepts}."),
    # --- AI players (engine.ai)
    # --- game records (engine.records)
    # a record's place and detail stay plain in the engine (replay reports read them)
    "bad_record": N_("The game record is not valid at {where}: {detail}"),
    # --- the game service (bot.service.errors)
    "no_table": N_("There is no game here. Start one with new."),
    "table_exists": N_("There is already a game here."),
    "table_busy": N_("The table is busy right now; please send that again."),
    "not_host": N_("Only the host can {action}."),
    "not_seated": N_("You are not playing at this table."),
    "already_seated": N_("You are already at this table."),
    "table_full": N_("The table is full ({seats} seats)."),
    "not_enough_players": N_("{variant} needs {minimum} to {maximum} players; there are {seats}."),
    "not_in_lobby": N_("The game has already started."),
    "not_playing": N_("The game has not started yet."),
    "bad_setting": N_("{name}: '{value}' is not allowed; expected {accepts}."),
    "no_such_season": N_("Season {season} has not started; the current season is {current}."),
    "season_still_empty": N_(
        "Season {season} has no rated game yet, so it goes on; finish a game first."
    ),
    "bad_season_word": N_("'{word}' is not understood; to start a new season: {usage}"),
    "no_such_seat": N_("There is no AI player at seat {seat}."),
    "not_finished": N_("A game can be exported once it is over."),
    "not_name_value": N_("{verb}: '{word}' is not name=value (e.g. timer=2m)."),
    "not_seat_number": N_("'{word}' is not a seat number."),
    # --- load, faults and storage (bot.service.errors, bot.service.flow)
    "engine_timeout": N_("That took too long to check; nothing changed. Please try again."),
    "no_hint_in_time": N_("No hint was found in time for this hand."),
    "not_your_table": N_("You are not playing at table #{table}."),
    "too_many_tables": N_("You already play at {limit} tables; finish or leave one first."),
    "ai_level_unavailable": N_(
        "The {level} AI is not available yet; pick easy, normal, hard or expert."
    ),
    "storage_unavailable": N_(
        "The game could not be saved just now; nothing changed. Please try again in a moment."
    ),
    "unreadable_table": N_(
        "This table (#{table}) cannot be loaded; the bot's operator has been told."
    ),
    "table_from_newer_release": N_(
        "Table #{table} was saved by a newer version of the bot and cannot be loaded by "
        "this one; the bot's operator has been told."
    ),
    "stale_control": N_(
        "The table has changed since; look again and press once more if it still fits."
    ),
    "unknown_offer": N_("That button is not in use (any more); here is your hand again."),
    # --- replays (bot.service.replays)
    "nothing_to_replay": N_("There is no game of that table to replay."),
    "replay_not_allowed": N_("You neither played at that table nor may watch it."),
    "no_deal_over": N_("No deal of that table is over yet; a deal can be replayed once it is."),
    "replay_damaged": N_(
        "The stored record of that table cannot be replayed; nothing was changed."
    ),
    "replay_busy": N_("The replay could not be prepared now; try again in a moment."),
    "too_fast": N_("Slow down: too many commands at once. Nothing was done."),
    "command_too_long": N_("That command is too long (at most {limit} characters)."),
}
"""Error code -> English message template (an ``N_`` msgid with ``{params}``)."""

# WrongPhase: the engine's ``action`` word -> the verb phrase after "You cannot".
_ACTIONS: Mapping[str, str] = {
    "draw": N_("draw"),
    "take": N_("take the upcard"),
    "meld": N_("meld"),
    "lay off": N_("lay off"),
    "swap": N_("swap a joker"),
    "discard": N_("discard"),
    "deal": N_("deal the next hand"),
    "take back": N_("take melds back"),
    "exchange": N_("exchange a joker"),
    "done": N_("end your lay-offs"),
    "buy back": N_("buy back"),
}

# WrongPhase: what the player should do instead, by the phase the game is in.
_EXPECTED: Mapping[str, str] = {
    "draw": N_("draw a card or take the upcard first."),
    "play": N_("you have already drawn; meld, lay off or discard."),
    "hand_over": N_("the hand is over; type next for the next deal."),
    "game_over": N_("the game is over."),
}
_STILL_PLAYING = N_("the hand is still being played.")

# InvalidMeld ``reason_code`` -> why the cards are no meld (engine.melds.check_meld).
_MELD_REASONS: Mapping[str, str] = {
    "too_few": N_("a meld needs at least three cards."),
    "too_many_jokers": N_("too many jokers."),
    "set_too_big": N_("a set has at most four cards."),
    "set_suits": N_("a set needs cards of different suits."),
    "mixed": N_("the cards are neither of one rank (set) nor of one suit (run)."),
    "ace_position": N_("the ace cannot stand there in a run."),
    "not_consecutive": N_("the cards of a run must be consecutive."),
    "joly_ratio": N_("a meld needs at least twice as many real tiles as Jolys."),
    "joly_set_colour": N_(
        "a Joly in a set stands for the number only; write jo or jo=7, not a colour."
    ),
}

# InvalidJokerSwap ``reason_code`` -> why.
_SWAP_REASONS: Mapping[str, str] = {
    "not_allowed": N_("these rules have no joker exchange."),
    "no_joker": N_("no joker in that meld stands for that card."),
}

_NO_CARDS_MELD = N_("Name the cards to meld, e.g. meld 7h 8h 9h.")
_NO_CARDS_LAYOFF = N_("Name the cards to lay off, e.g. layoff 10h {number}.")
_LAYOFF_INVALID = N_("the meld would not stay a valid set or run.")
_MELD_LIMIT_N = N_("Only {limit} new melds per turn are allowed.")

# RuleOptionError: messages keyed by what went wrong (see _option_message).
_UNKNOWN_VARIANT = N_("Unknown variant '{value}'. Variants: {accepts}.")
_UNKNOWN_PRESET = N_("Unknown preset '{value}'. Presets: {accepts}.")
_UNKNOWN_OPTION = N_("Unknown option '{option}'. Options: {accepts}.")
_BAD_PLAYER_COUNT = N_("This game is for {accepts} players, not {value}.")
_BAD_PLAYER_NAMES = N_("Player names must be different, not empty and without ':'.")
_NEED_AN_END = N_("Set a target score or a number of deals (target=N or deals=N).")
_PAYMENT_NEEDS_DEALS = N_("Payment scoring is played for a fixed number of deals (deals=N).")
_DECK_TOO_SMALL = N_("Not enough cards: the deck has {value}, {accepts} are needed.")
_BAD_OPTION_TEXT = N_("Option {option} needs the form name=value, e.g. target=150.")
_ACCEPTS_BOOL = N_("on or off")
_ACCEPTS_INT = N_("a whole number from {low} to {high}")
_ACCEPTS_INT_MIN = N_("a whole number from {low}")
_ACCEPTS_NONE_WORD = N_("{accepts} or {word}")
_ACCEPTS_CHOICES = N_("one of {choices}")


def localize_error(error: EngineError) -> str:
    """The message of ``error`` in the current locale (:data:`bot.i18n.current_locale`).

    Known codes use their translated template from :data:`ERROR_TEMPLATES`
    (or a special builder for the codes whose params hold English text);
    unknown codes, and params that do not fit the template, give the engine's
    English ``error.message``. Never raises.
    """
    builder = _BUILDERS.get(error.code)
    try:
        params = _shown_params(error.params)
        if builder is not None:
            return builder(params)
        template = ERROR_TEMPLATES.get(error.code) or _engine_template(error)
        if template is None:
            return error.message
        return _(template).format(**params)
    except (KeyError, IndexError, ValueError, TypeError):
        return error.message


_CARD_PARAMS = ("card", "cards", "tile", "tiles")
"""Params that hold cards or tiles in the engine's codes (``qh``, ``jk=8h 9h``): shown as
the screen shows cards (``D♥``, ``🃏(8♥)``) in the reader's language."""


def _shown_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` with the engine's codes in the reader's language: cards as the screen
    shows them, a verb as its word (``abwerfen``), an example command in its words
    (``abwerfen dhe``). A word that is no card stays as it is."""
    from bot.i18n.notation import card_text, command_text, face_text, verb_word
    from engine.commands import canonical_verb
    from engine.errors import CardParseError
    from engine.melds import CardSpec

    def cards(text: str) -> str:
        shown = []
        for word in text.split():
            try:
                spec = CardSpec.parse(word)
            except CardParseError:
                shown.append(word)
                continue
            face = f"({face_text(spec.face)})" if spec.face is not None else ""
            shown.append(card_text(spec.card) + face)
        return " ".join(shown)

    out = dict(params)
    for key in _CARD_PARAMS:
        if isinstance(out.get(key), str):
            out[key] = cards(out[key])
    if isinstance(out.get("verb"), str):
        verb = canonical_verb(out["verb"])
        out["verb"] = verb_word(verb) if verb is not None else out["verb"]
    if isinstance(out.get("example"), str):
        out["example"] = command_text(out["example"])
    return out


def error_template(cls: type[EngineError]) -> str | None:
    """The English msgid :func:`localize_error` translates for errors of ``cls``: the
    bot's own entry where the engine's wording has other params, else the template
    written once in the engine (``None`` for the generic ``{detail}`` carriers)."""
    own = ERROR_TEMPLATES.get(cls.code)
    if own is not None:
        return own
    return None if cls.template == "{detail}" else cls.template


def _class_templates() -> dict[str, str]:
    """code -> template of every engine error class (for the builders' codes)."""
    found: dict[str, str] = {}
    pending: list[type[EngineError]] = [EngineError]
    while pending:
        cls = pending.pop()
        found.setdefault(cls.code, cls.template)
        pending.extend(cls.__subclasses__())
    return found


def _engine_template(error: EngineError) -> str | None:
    """The error class's own template, the msgid written once in the engine; ``None`` for
    the generic ``{detail}`` carriers (their detail is English from the engine)."""
    template = type(error).template
    return None if template == "{detail}" else template


def _template(code: str, params: Mapping[str, Any]) -> str:
    template = ERROR_TEMPLATES.get(code) or _class_templates()[code]
    return _(template).format(**params)


def _wrong_phase(params: Mapping[str, Any]) -> str:
    action = str(params.get("action", ""))
    phase = str(params.get("phase", ""))
    verb = _(_ACTIONS[action]) if action in _ACTIONS else action
    if action == "deal" and phase in ("draw", "play"):
        expected = _(_STILL_PLAYING)
    elif phase in _EXPECTED:
        expected = _(_EXPECTED[phase])
    else:
        expected = str(params.get("expected", ""))
    return _template("wrong_phase", {"action": verb, "expected": expected})


def _invalid_meld(params: Mapping[str, Any]) -> str:
    cards = str(params.get("cards", ""))
    if not cards:
        return _(_NO_CARDS_MELD)
    code = str(params.get("reason_code", ""))
    reason = _(_MELD_REASONS[code]) if code in _MELD_REASONS else str(params.get("reason", ""))
    return _template("invalid_meld", {"cards": cards, "reason": reason})


def _invalid_layoff(params: Mapping[str, Any]) -> str:
    cards = str(params.get("cards", ""))
    number = params.get("number", "")
    if not cards:
        return _(_NO_CARDS_LAYOFF).format(number=number)
    return _template(
        "invalid_layoff", {"cards": cards, "number": number, "reason": _(_LAYOFF_INVALID)}
    )


def _invalid_swap(params: Mapping[str, Any]) -> str:
    code = str(params.get("reason_code", ""))
    reason = _(_SWAP_REASONS[code]) if code in _SWAP_REASONS else str(params.get("reason", ""))
    return _template("invalid_joker_swap", {"reason": reason})


def _meld_limit(params: Mapping[str, Any]) -> str:
    limit = params.get("limit", 1)
    if limit == 1:
        return _template("meld_limit", {})
    return _(_MELD_LIMIT_N).format(limit=limit)


def _option_message(params: Mapping[str, Any]) -> str:
    """RuleOptionError: its params (option, value, accepts) tell the cases apart."""
    option = str(params.get("option", ""))
    value = str(params.get("value", ""))
    accepts = str(params.get("accepts", ""))
    detail = str(params.get("detail", ""))
    text = _setup_message(option, value, accepts)
    if text is not None:
        return text
    if accepts == "target or deals":
        return _(_NEED_AN_END)
    if accepts == "a number of deals":
        return _(_PAYMENT_NEEDS_DEALS)
    return _rule_option_message(option, value, accepts, detail)


def _setup_message(option: str, value: str, accepts: str) -> str | None:
    """A RuleOptionError about the table's set-up rather than one rule option: an unknown
    variant or preset, bad players, a deck too small, option text that is no
    ``name=value``; ``None`` for any other."""
    if option == "variant":
        return _(_UNKNOWN_VARIANT).format(value=value, accepts=accepts)
    if option == "preset":
        return _(_UNKNOWN_PRESET).format(value=value, accepts=accepts)
    if option == "players":
        if accepts == "names":
            return _(_BAD_PLAYER_NAMES)
        return _(_BAD_PLAYER_COUNT).format(accepts=accepts, value=value)
    if option == "deck":
        return _(_DECK_TOO_SMALL).format(value=value, accepts=accepts)
    if option == "option":
        return _(_BAD_OPTION_TEXT).format(option=value)
    return None


def _rule_option_message(option: str, value: str, accepts: str, detail: str) -> str:
    """A RuleOptionError about one rule option: a bad value of a known option (what it
    accepts, in the current locale), an unknown option, else the error's ``detail``."""
    spec = _find_option(option)
    if spec is None:
        if detail.startswith("unknown option"):
            return _(_UNKNOWN_OPTION).format(option=option, accepts=accepts)
        return detail or option
    return _template("bad_option", {"option": spec.name, "value": value, "accepts": _accepts(spec)})


def _find_option(name: str) -> Option | None:
    """The option spec called ``name`` in any registered variant, or ``None``."""
    from engine.variants import VARIANTS

    key = name.strip().lower().replace("-", "_")
    for variant in VARIANTS.values():
        for option in variant.options:
            if option.name == key:
                return option
    return None


def _accepts(option: Option) -> str:
    """What ``option`` accepts, in the current locale (cf. ``Option.accepts``)."""
    if option.kind is bool:
        return _(_ACCEPTS_BOOL)
    if option.kind is int:
        if option.maximum is not None:
            text = _(_ACCEPTS_INT).format(low=option.minimum or 0, high=option.maximum)
        else:
            text = _(_ACCEPTS_INT_MIN).format(low=option.minimum or 0)
        if option.none_word:
            text = _(_ACCEPTS_NONE_WORD).format(accepts=text, word=option.none_word)
        return text
    return _(_ACCEPTS_CHOICES).format(choices=", ".join(option.choices))


# NotHost: the service's ``action`` phrase -> its translation.
_HOST_ACTIONS: Mapping[str, str] = {
    "add AI players": N_("add AI players"),
    "remove AI players": N_("remove AI players"),
    "change the settings": N_("change the settings"),
    "start the game": N_("start the game"),
    "cancel the game": N_("cancel the game"),
    "start a new season": N_("start a new season"),
}


def _not_host(params: Mapping[str, Any]) -> str:
    action = str(params.get("action", ""))
    return _template("not_host", {"action": _(_HOST_ACTIONS.get(action, action))})


_BAD_TILE = N_("'{text}' is not a tile (examples: {examples}).")


def _bad_card(params: Mapping[str, Any]) -> str:
    """A card, or a tile at a table that plays with tiles (with that notation's examples)."""
    if params.get("piece") == "tile":
        from bot.i18n.notation import notation_examples

        return _(_BAD_TILE).format(text=params["text"], examples=notation_examples(tiles=True))
    return _template("bad_card", {"text": params["text"]})


def _not_enough_players(params: Mapping[str, Any]) -> str:
    """The variant's name in the current language (its English name is the msgid)."""
    return _template("not_enough_players", {**params, "variant": _(str(params["variant"]))})


def _bad_season_word(params: Mapping[str, Any]) -> str:
    """The usage ``season new`` in the current language (``saison neu``)."""
    from bot.i18n.notation import command_text

    return _template(
        "bad_season_word", {"word": params.get("word", ""), "usage": command_text("season new")}
    )


def _replay_damaged(params: Mapping[str, Any]) -> str:
    text = _(ERROR_TEMPLATES["replay_damaged"])
    detail = params.get("detail")
    return f"{text} ({detail})" if detail else text


_BUILDERS: Mapping[str, Callable[[Mapping[str, Any]], str]] = {
    "bad_season_word": _bad_season_word,
    "not_enough_players": _not_enough_players,
    "bad_card": _bad_card,
    "not_host": _not_host,
    "wrong_phase": _wrong_phase,
    "invalid_meld": _invalid_meld,
    "invalid_layoff": _invalid_layoff,
    "invalid_joker_swap": _invalid_swap,
    "meld_limit": _meld_limit,
    "bad_option": _option_message,
    "replay_damaged": _replay_damaged,
}
