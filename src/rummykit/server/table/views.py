"""What each seat and each watcher is sent: the engine's views, and their common part.

A seat receives exactly ``state.observation(seat)`` and ``state.events_for(seat)`` as
the engine makes them.  A watcher receives the *common view*: the part of the seats'
views that is the same for every seat, with every value that differs between seats
(a hand, a drawn card, a dealt hand) replaced by ``null``.  Whatever a watcher sees,
every player sees too, so a watcher can never learn a hidden card.  Lists of cards are
compared whole (never card by card, which would reveal cards two hands share).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

# Never shown to a watcher, even when every seat's value is the same: a seat's number,
# and its hand (two decks hold two of each card, so both hands can be the same cards).
WATCHER_DROPPED = ("player", "hand")


def common_view(views: Sequence[Any]) -> Any:
    """The part of JSON ``views`` (one per seat) that is equal in all of them.

    >>> common_view([{"hand": ["7h"], "stock": 3}, {"hand": ["9c"], "stock": 3}])
    {'hand': None, 'stock': 3}
    >>> common_view([[["7h", "8h"], None], [None, ["2c", "3c"]]])
    [None, None]
    >>> common_view([["7h", "8c"], ["7h", "9d"]])
    """
    first = views[0]
    if all(view == first for view in views[1:]):
        return first
    if all(isinstance(view, dict) for view in views):
        keys = set(first)
        if all(set(view) == keys for view in views):
            return {key: common_view([view[key] for view in views]) for key in first}
        return None
    if all(isinstance(view, list) for view in views):
        length = len(first)
        if all(len(view) == length for view in views) and all(
            item is None or isinstance(item, (list, dict)) for view in views for item in view
        ):
            return [common_view([view[i] for view in views]) for i in range(length)]
        return None
    return None


def watcher_observation(observations: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The common view of every seat's observation JSON, ``player`` and ``hand`` null.

    >>> watcher_observation([{"player": 0, "hand": ["Ac"]}, {"player": 1, "hand": ["Ac"]}])
    {'player': None, 'hand': None}
    """
    common = common_view(observations)
    assert isinstance(common, dict)
    view = dict(common)  # common_view may hand back a seat's own dict, which a host keeps
    for key in WATCHER_DROPPED:
        if key in view:
            view[key] = None
    return view


def watcher_events(per_seat: Sequence[Sequence[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The common view of each event, given each seat's JSON of the same events."""
    return [common_view([seat[i] for seat in per_seat]) for i in range(len(per_seat[0]))]
