"""Discord's rules for answering interactions: the one callback, follow-ups, ``@original``.

* An interaction accepts exactly one callback. A second one gets 400 / 40060
  "Interaction has already been acknowledged."; an unknown id or token, or a first
  callback later than ``callback_deadline`` seconds (Discord: 3), gets 404 / 10062
  "Unknown interaction".
* Allowed callback types: slash command 4, 5, 9; component 4, 5, 6, 7, 9; autocomplete 8;
  modal submit 4, 5, and 6, 7 when the modal came from a component.
* Flag 64 in the callback data makes the response ephemeral: only the interaction's user
  sees it. A deferral (type 5) creates a loading placeholder, ephemeral when the
  deferral had flag 64; the first follow-up after it fills that placeholder and keeps the
  deferral's visibility (the follow-up's own flag 64 is ignored, as on Discord).
* Follow-ups and ``@original`` need an acknowledged interaction (else 404 / 10015
  "Unknown Webhook"); the token lasts ``token_lifetime`` seconds (else 401 / 50027).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from . import interactions as it
from .entities import Json
from .errors import (
    ALREADY_ACKNOWLEDGED,
    INVALID_WEBHOOK_TOKEN,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    DiscordAPIError,
    FormErrors,
    not_found,
)
from .limits import check_autocomplete_result, check_modal
from .messages import CHAT_INPUT_COMMAND, DEFAULT, EPHEMERAL, LOADING, FakeMessage

if TYPE_CHECKING:
    from .server import FakeDiscord

ALLOWED_CALLBACKS: dict[int, frozenset[int]] = {
    it.APPLICATION_COMMAND: frozenset(
        {it.CHANNEL_MESSAGE, it.DEFERRED_CHANNEL_MESSAGE, it.MODAL, it.LAUNCH_ACTIVITY}
    ),
    it.MESSAGE_COMPONENT: frozenset(
        {
            it.CHANNEL_MESSAGE,
            it.DEFERRED_CHANNEL_MESSAGE,
            it.DEFERRED_UPDATE_MESSAGE,
            it.UPDATE_MESSAGE,
            it.MODAL,
            it.LAUNCH_ACTIVITY,
        }
    ),
    it.AUTOCOMPLETE: frozenset({it.AUTOCOMPLETE_RESULT}),
    it.MODAL_SUBMIT: frozenset(
        {
            it.CHANNEL_MESSAGE,
            it.DEFERRED_CHANNEL_MESSAGE,
            it.DEFERRED_UPDATE_MESSAGE,
            it.UPDATE_MESSAGE,
        }
    ),
}


def callback(server: FakeDiscord, interaction_id: int, token: str, body: Json) -> Json:
    """Accept the interaction's one callback and return Discord's ``with_response`` body."""
    interaction = server.interactions.get(interaction_id)
    if interaction is None or interaction.token != token:
        raise not_found(UNKNOWN_INTERACTION, "interaction")
    if interaction.acknowledged:
        interaction.refused_callbacks.append(body)
        raise DiscordAPIError(
            400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged."
        )
    deadline = server.callback_deadline
    if deadline is not None and time.monotonic() - interaction.created > deadline:
        interaction.refused_callbacks.append(body)
        raise not_found(UNKNOWN_INTERACTION, "interaction")
    kind = body.get("type")
    data: Json = body.get("data") or {}
    _check_callback_type(interaction, kind)
    assert isinstance(kind, int)
    message: FakeMessage | None = None
    if kind == it.CHANNEL_MESSAGE:
        message = _response_message(server, interaction, data, loading=False)
    elif kind == it.DEFERRED_CHANNEL_MESSAGE:
        message = _response_message(server, interaction, data, loading=True)
    elif kind == it.DEFERRED_UPDATE_MESSAGE:
        message = interaction.source_message
    elif kind == it.UPDATE_MESSAGE:
        message = interaction.source_message
        assert message is not None
        server.edit_message(message, data)
    elif kind == it.AUTOCOMPLETE_RESULT:
        check_autocomplete_result(data)
    elif kind == it.MODAL:
        check_modal(data)
    interaction.response_type = kind
    interaction.response_data = data
    interaction.original = message
    interaction.responded.set()
    return _callback_response(interaction, kind, message)


def _check_callback_type(interaction: it.FakeInteraction, kind: object) -> None:
    allowed = set(ALLOWED_CALLBACKS.get(interaction.type, ()))
    if interaction.source_message is None:
        allowed -= {it.DEFERRED_UPDATE_MESSAGE, it.UPDATE_MESSAGE}
    if kind not in allowed:
        errors = FormErrors()
        errors.add(
            ("type",),
            "INTERACTION_CALLBACK_TYPE_INVALID",
            f"Callback type {kind} is not valid for interaction type {interaction.type}",
        )
        errors.raise_if_any()


def _callback_response(
    interaction: it.FakeInteraction, kind: int, message: FakeMessage | None
) -> Json:
    summary: Json = {"id": str(interaction.id), "type": interaction.type}
    resource: Json = {"type": kind}
    if message is not None:
        summary.update(
            response_message_id=str(message.id),
            response_message_loading=message.loading,
            response_message_ephemeral=message.ephemeral,
        )
        if kind != it.DEFERRED_UPDATE_MESSAGE:
            resource["message"] = message.to_json()
    return {"interaction": summary, "resource": resource}


def _response_message(
    server: FakeDiscord, interaction: it.FakeInteraction, data: Json, *, loading: bool
) -> FakeMessage:
    ephemeral = bool((data.get("flags") or 0) & EPHEMERAL)
    flags = (EPHEMERAL if ephemeral else 0) | (LOADING if loading else 0)
    kind = CHAT_INPUT_COMMAND if interaction.type == it.APPLICATION_COMMAND else DEFAULT
    return server.create_message(
        interaction.channel,
        server.world.bot,
        {} if loading else data,
        flags=flags,
        viewer=interaction.user if ephemeral else None,
        interaction=interaction,
        type=kind,
        validate=not loading,
    )


def interaction_for_webhook(
    server: FakeDiscord, application_id: int, token: str
) -> it.FakeInteraction:
    """The acknowledged interaction behind webhook ``application_id``/``token``."""
    interaction = server.interaction_by_token(token)
    if interaction is None or application_id != server.world.application_id:
        raise not_found(UNKNOWN_WEBHOOK, "Webhook")
    if time.monotonic() - interaction.created > server.token_lifetime:
        raise DiscordAPIError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
    if interaction.response_type not in (
        it.CHANNEL_MESSAGE,
        it.DEFERRED_CHANNEL_MESSAGE,
        it.DEFERRED_UPDATE_MESSAGE,
        it.UPDATE_MESSAGE,
    ):
        raise not_found(UNKNOWN_WEBHOOK, "Webhook")
    return interaction


def followup(server: FakeDiscord, application_id: int, token: str, body: Json) -> FakeMessage:
    """Create a follow-up message (or fill the deferred placeholder); return it."""
    interaction = interaction_for_webhook(server, application_id, token)
    original = interaction.original
    if (
        interaction.response_type == it.DEFERRED_CHANNEL_MESSAGE
        and original is not None
        and original.loading
        and not original.deleted
    ):
        server.edit_message(original, {k: v for k, v in body.items() if k != "flags"})
        return original
    ephemeral = bool((body.get("flags") or 0) & EPHEMERAL)
    message = server.create_message(
        interaction.channel,
        server.world.bot,
        body,
        flags=EPHEMERAL if ephemeral else 0,
        viewer=interaction.user if ephemeral else None,
        interaction=interaction,
        type=DEFAULT,
    )
    interaction.followups.append(message)
    return message


def webhook_message(
    server: FakeDiscord, application_id: int, token: str, message_id: str
) -> FakeMessage:
    """The message ``@original`` or ``message_id`` of an interaction webhook (404 10008)."""
    interaction = interaction_for_webhook(server, application_id, token)
    candidates = [interaction.original, *interaction.followups]
    if message_id == "@original":
        found = interaction.original
    else:
        found = next((m for m in candidates if m is not None and str(m.id) == message_id), None)
    if found is None or found.deleted:
        raise not_found(UNKNOWN_MESSAGE, "Message")
    return found
