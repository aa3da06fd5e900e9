"""The declarative base every table of the server's database is declared on (its
metadata is what the migrations must build: ``tests/server/storage/test_schema.py``)."""

from __future__ import annotations

from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass
