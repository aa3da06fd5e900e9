"""The rating book: pools kept apart, drift for people, a JSON round trip."""

from __future__ import annotations

import json

import pytest

from rummykit.rating.book import RatingBook
from rummykit.rating.model import MU, SIGMA, Rating, RatingError, new_model, rate_table


def test_a_table_moves_only_its_pool() -> None:
    book = RatingBook()
    book.rate("three-thirteen/4", ["ann", "bob", "cy", "dee"], [1, 2, 2, 4])
    assert book.players("burraco") == {}
    assert book.rating("three-thirteen/3", "ann") == Rating()
    four = book.players("three-thirteen/4")
    assert four["bob"].mu == pytest.approx(four["cy"].mu)
    assert four["ann"].mu > four["bob"].mu > four["dee"].mu
    assert book.games("three-thirteen/4", "bob") == 1


def test_people_drift_and_the_ladder_does_not() -> None:
    people, bots = RatingBook(), RatingBook(drift=False)
    for book in (people, bots):
        book.rate("burraco", ["ann", "bob"], [1, 2])
    still = rate_table(new_model(drift=False), [Rating(), Rating()], [1, 2])
    assert bots.rating("burraco", "ann") == still[0]
    # tau is added to sigma before the update, so a person's sigma shrinks less
    assert people.rating("burraco", "ann").sigma > still[0].sigma
    assert people.rating("burraco", "ann").sigma < SIGMA


def test_the_book_round_trips_through_json() -> None:
    book = RatingBook()
    book.rate("burraco", ["ann", "bob"], [2, 1])
    book.rate("burraco", ["bob", "cy"], [1, 1])
    again = RatingBook.from_json(json.loads(json.dumps(book.to_json())))
    assert again.to_json() == book.to_json()
    again.rate("burraco", ["ann", "cy"], [1, 2])
    book.rate("burraco", ["ann", "cy"], [1, 2])
    assert again.rating("burraco", "ann") == book.rating("burraco", "ann")
    assert book.rating("burraco", "bob").mu > MU


def test_a_player_twice_at_a_table_is_refused() -> None:
    with pytest.raises(RatingError) as refused:
        RatingBook().rate("burraco", ["ann", "ann"], [1, 2])
    assert refused.value.code == "bad_players"
