"""The server's own error codes: one catalogue for the lobby (HTTP) and the table socket.

Every error the server answers carries a stable ``code``, its ``params`` and an English
``message``: ``{"error": {"code", "message", "params"}}`` over HTTP, ``{"type": "error",
...}`` over the WebSocket.  :data:`ERROR_CODES` lists each server code once, with the HTTP
status it is answered with (if it is), whether it is sent over the table socket, its
parameters (names and JSON types) and an English message template with ``{name}``
placeholders.  docs/protocol.md's table of codes is :func:`markdown_table` (``python -m
rummykit.server.protocol.error_codes --markdown`` prints it), the browser client says each code in
its player's language (``error.<code>`` in ``rummykit/web/i18n/<lang>.json``), and the
tests hold the server's source, the docs and the translations to this list, so a code
cannot be added without its entry here.

Engine refusals (an illegal move: ``not_your_turn``, ``illegal_meld``...) are not listed:
the server passes them on with the engine's own code and params, and the client has their
texts in ``web/i18n/refusals.<lang>.json``.  ``game_over`` is both: the engine refuses a
move after the end, and the table refuses one before it reaches the engine.

This module is data and text; it never raises an HTTP error or writes to a socket.

>>> ERROR_CODES["stale_state"].status is None
True
>>> english("login_throttled", {"retry_after": 42})
'too many failed logins; try again in 42 seconds'
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

ParamType = Literal["integer", "string", "string or null"]
PLACEHOLDER: Final = re.compile(r"\{([a-z_][a-z0-9_]*)\}")


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of an error: its name, JSON type, and whether every error with the
    code carries it (a translation may only use the parameters that are always there)."""

    name: str
    type: ParamType
    optional: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ErrorCode:
    """A server error code.  ``http`` and ``websocket`` say whether it is answered over
    HTTP and sent by the table socket; ``status`` is its HTTP status (``None`` when it is
    not answered over HTTP, or, for ``http_error``, any status the framework gives);
    ``message`` is the English template, ``{name}`` standing for a parameter that is
    always present."""

    code: str
    status: int | None
    websocket: bool = False
    http: bool = True
    params: tuple[Param, ...] = ()
    message: str

    @property
    def param_names(self) -> frozenset[str]:
        return frozenset(param.name for param in self.params)

    @property
    def required_params(self) -> frozenset[str]:
        return frozenset(param.name for param in self.params if not param.optional)


def _http(
    code: str, status: int, message: str, *params: Param, websocket: bool = False
) -> ErrorCode:
    return ErrorCode(code=code, status=status, websocket=websocket, params=params, message=message)


def _socket(code: str, message: str, *params: Param) -> ErrorCode:
    return ErrorCode(
        code=code, status=None, websocket=True, http=False, params=params, message=message
    )


_INT: Final[ParamType] = "integer"
_STR: Final[ParamType] = "string"

_CATALOGUE: Final[tuple[ErrorCode, ...]] = (
    # -- sessions and accounts -----------------------------------------------------------
    _http("no_session", 401, "start a session first (POST /api/session)", websocket=True),
    _http("bad_login", 401, "wrong name or password"),
    _http("already_registered", 409, "this player is already registered"),
    _http("name_taken", 409, "the name {name} is taken", Param("name", _STR)),
    _http(
        "name_reserved",
        409,
        "the nickname {name} is a registered player's name",
        Param("name", _STR),
    ),
    _http(
        "name_confusable",
        409,
        "the name {name} looks like {like}, another player's",
        Param("name", _STR),
        Param("like", _STR),
    ),
    _http(
        "name_like_computer",
        422,
        "the name {name} reads as a computer player's",
        Param("name", _STR),
    ),
    _http(
        "bad_login_name",
        422,
        "a name is 3 to 32 letters of one script, digits and _ . - (rule broken: {rule})",
        Param("rule", _STR),
        Param("min", _INT, optional=True),
        Param("max", _INT, optional=True),
        Param("field", _STR, optional=True),
    ),
    _http(
        "bad_password",
        422,
        "a password has at least {min} characters",
        Param("rule", _STR),
        Param("min", _INT),
        Param("field", _STR, optional=True),
    ),
    _http(
        "bad_nickname",
        422,
        "a name may not hold control or markup characters",
        Param("field", _STR, optional=True),
    ),
    _http(
        "login_throttled",
        429,
        "too many failed logins; try again in {retry_after} seconds",
        Param("retry_after", _INT),
    ),
    _http(
        "registration_throttled",
        429,
        "too many registrations from here; try again in {retry_after} seconds",
        Param("retry_after", _INT),
    ),
    _http(
        "guest_throttled",
        429,
        "too many new guests from here; try again in {retry_after} seconds",
        Param("retry_after", _INT),
    ),
    # -- requests --------------------------------------------------------------------------
    _http("bad_request", 400, "the request is not well-formed HTTP"),
    _http("invalid_request", 422, "{field}: the request is not valid", Param("field", _STR)),
    _http(
        "body_too_large",
        413,
        "the request body is over {max_bytes} bytes",
        Param("max_bytes", _INT),
    ),
    _http("method_not_allowed", 405, "this method is not allowed here"),
    _http("request_timeout", 408, "the request's headers did not come in time"),
    _http("headers_too_large", 431, "the request's headers are too large"),
    _http("server_busy", 503, "the server has too many connections; try again shortly"),
    _http("limits_unavailable", 503, "the server cannot check this now; try again shortly"),
    _http("internal_error", 500, "the server failed on this request"),
    ErrorCode(
        code="http_error",
        status=None,
        message="the request failed (another HTTP error; the status says which)",
    ),
    # -- tables ----------------------------------------------------------------------------
    _http(
        "not_found",
        404,
        "there is no such table",
        Param("table_id", _STR, optional=True),
        websocket=True,
    ),
    _http("private_table", 403, "this table is private: use its invitation link", websocket=True),
    _http(
        "too_many_tables",
        429,
        "you have {limit} unfinished tables: finish or leave some first",
        Param("limit", _INT),
    ),
    _http("bad_rules", 400, "these rule options do not make a game"),
    _http("bad_seat", 400, "these seats do not make a table"),
    _http(
        "bad_bot",
        400,
        "this bot cannot play at this table",
        Param("level", _STR, optional=True),
    ),
    _http("bad_turn_seconds", 400, "the turn time is not allowed"),
    _http(
        "bad_days_per_move",
        400,
        "a turn-based table's time per move is 1, 2, 3, 5, 7 or 14 days",
        Param("days", _INT, optional=True),
    ),
    _http(
        "too_many_turn_based",
        429,
        "you have {limit} turn-based games under way: finish some first",
        Param("limit", _INT),
    ),
    _http(
        "bad_vacation",
        400,
        "a vacation is 1 to {days_left} whole days, starting now or later",
        Param("days_left", _INT),
    ),
    _http("table_full", 409, "every seat is taken"),
    _http("seat_taken", 409, "that seat is not free", Param("seat", _INT)),
    _http("no_such_seat", 400, "there is no such seat", Param("seat", _INT)),
    _http("table_started", 409, "the game has started; you can watch it"),
    _http("not_seated", 400, "you have no seat at this table", websocket=True),
    _http("table_unavailable", 503, "the table is busy; try again", websocket=True),
    _http("rated_needs_account", 403, "rated tables are for registered players: log in"),
    _http("rated_needs_people", 400, "a rated table seats people only, no bots"),
    _http("unknown_player", 404, "there is no such player"),
    # -- tournaments -------------------------------------------------------------------------
    _http("unknown_tournament", 404, "there is no such tournament"),
    _http("tournament_started", 409, "registration is closed: the tournament has started"),
    _http("tournament_full", 409, "every place is taken", Param("capacity", _INT)),
    _http("not_registered", 409, "you are not entered in this tournament"),
    _http("metrics_token", 401, "a scrape needs the metrics token"),
    _http("not_moderator", 403, "only moderators may do this"),
    _http("report_self", 422, "you cannot report yourself"),
    _http("report_limit", 429, "too many reports today", Param("limit", _INT)),
    _http("unknown_report", 404, "there is no such open report"),
    _http("account_closed", 403, "this account is closed"),
    _http("marked_account", 403, "a marked account takes no part in tournaments"),
    _http("linked_account", 409, "an account linked to yours already takes part here"),
    _http("not_creator", 403, "only the tournament's creator may start it"),
    _http("not_invited", 403, "that pair has not invited you: ask for its link"),
    _http("not_pair_leader", 409, "only a pair's first player invites its partner"),
    _http("already_entered", 409, "that player is entered already"),
    _http(
        "too_many_tournaments",
        429,
        "you have {limit} tournaments under way: wait until one is over",
        Param("limit", _INT),
    ),
    _http(
        "tournament_table",
        409,
        "a tournament's table has no rematch: the tournament deals its next round",
    ),
    # -- records, replays and reviews --------------------------------------------------------
    _http("not_a_player", 403, "only the game's players may do this"),
    _http(
        "not_your_seat",
        403,
        "only your own seat is shown or reviewed",
        Param("seat", _INT, optional=True),
    ),
    _http("too_long", 400, "this game is too long to replay here"),
    _http("game_not_over", 409, "a game can be reviewed once it is over"),
    _http("no_review", 404, "this game has no review yet: start one"),
    _http("review_pending", 429, "a review of yours is already being worked out"),
    _http(
        "bot_unavailable",
        503,
        "the bots cannot answer right now; try again shortly",
        websocket=True,
    ),
    # -- notifications ------------------------------------------------------------------------
    _http(
        "channel_unavailable",
        409,
        "this server does not send notifications by {channel}",
        Param("channel", _STR),
    ),
    _http("email_needs_account", 403, "notifications by e-mail are for registered players: log in"),
    _http("verification_throttled", 429, "too many verification mails today; try tomorrow"),
    _http("bad_link", 400, "this link is not valid (or too old): ask for a new one"),
    _http("link_outdated", 409, "this link is for an address that is no longer the account's"),
    _http(
        "bad_push_endpoint",
        422,
        "this browser's push service cannot be used ({reason})",
        Param("reason", _STR),
    ),
    # -- the table socket --------------------------------------------------------------------
    _socket("bad_origin", "connections are accepted from this site only"),
    _socket("bad_json", "the message is not a JSON object"),
    _socket(
        "unknown_type",
        "the message type is missing or unknown",
        Param("type", "string or null"),
    ),
    _socket(
        "invalid_message",
        "{field}: a field is missing, extra, of the wrong type or out of range",
        Param("field", _STR),
    ),
    _socket("message_too_large", "the message is over {max_bytes} bytes", Param("max_bytes", _INT)),
    _socket("rate_limited", "too many messages; slow down"),
    _socket(
        "too_many_sockets",
        "you have {limit} connections open already: close a tab or table first",
        Param("limit", _INT),
    ),
    _socket("bad_notation", "{action} is not an action of this game", Param("action", _STR)),
    _socket(
        "stale_state",
        "the table is at state {state_number}, not {sent}",
        Param("state_number", _INT),
        Param("sent", _INT),
    ),
    _socket("seat_changed", "your seat at this table has changed"),
    _socket("table_not_started", "the table is waiting for players"),
    _socket("game_over", "the game is over"),
    _socket("turn_timed_out", "the turn timer ran out: greedy plays this turn"),
    _socket(
        "chat_rate",
        "too many chat messages (at most {per_minute} a minute); wait a little",
        Param("per_minute", _INT),
    ),
    _socket("chat_empty", "the chat message is empty"),
    _socket("hint_not_your_turn", "hints are for the player to move"),
    _socket("hint_pending", "a hint is already being worked out"),
    _socket("hint_failed", "no hint could be made"),
    _socket("hint_not_allowed", "no hints while a rated or tournament game is played"),
    _socket("bot_error", "the bot could not answer"),
    _socket("nothing_to_claim", "no other side has abandoned this game"),
    _socket(
        "nothing_to_substitute",
        "the time of the player to move has not run out: there is no move to hand over",
    ),
)

ERROR_CODES: Final[Mapping[str, ErrorCode]] = {entry.code: entry for entry in _CATALOGUE}


def english(code: str, params: Mapping[str, object] | None = None) -> str:
    """The English message of ``code`` with its ``params`` filled in (a placeholder whose
    parameter is missing stays as it is).  ``KeyError`` for a code not in the catalogue."""
    values = params or {}

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        return str(values[name]) if name in values else match.group(0)

    return PLACEHOLDER.sub(fill, ERROR_CODES[code].message)


# ---------------------------------------------------------------------------------------
# docs/protocol.md


def _status_cell(entry: ErrorCode) -> str:
    if entry.status is not None:
        return str(entry.status)
    return "any other" if entry.http else "—"


def _params_cell(entry: ErrorCode) -> str:
    cells = []
    for param in entry.params:
        kind = param.type + (", optional" if param.optional else "")
        cells.append(f"`{param.name}` ({kind})")
    return ", ".join(cells) or "—"


def _message_cell(entry: ErrorCode) -> str:
    return entry.message.replace("|", "\\|")


def markdown_table(entries: Sequence[ErrorCode] = _CATALOGUE) -> str:
    """The catalogue as the Markdown table docs/protocol.md holds (one row per code, in
    the catalogue's order; HTTP status ``—`` for a socket-only code)."""
    lines = [
        "| code | HTTP | socket | params | English message |",
        "|---|---|---|---|---|",
    ]
    for entry in entries:
        socket = "yes" if entry.websocket else ""
        lines.append(
            f"| `{entry.code}` | {_status_cell(entry)} | {socket} | {_params_cell(entry)}"
            f" | {_message_cell(entry)} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m rummykit.server.protocol.error_codes",
        description="Print the server's error codes.",
    )
    parser.add_argument("--markdown", action="store_true", help="as the table in docs/protocol.md")
    options = parser.parse_args(argv)
    if options.markdown:
        print(markdown_table(), end="")
    else:
        for entry in _CATALOGUE:
            print(entry.code)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
