"""``--help`` pages in plain words: names, values and defaults, no type tags.

Typer's own pages tag every option with a type (``<int>``, even ``--help <bool>``) and
write required arguments as ``{game}``.  These command classes write the page
themselves through the command-line library's help formatter: an option shows the
value it takes by its metavar (``--seed N``), a flag shows nothing, and a default is
shown only where the option has one worth telling.
"""

from __future__ import annotations

from typing import Any

from typer.core import TyperCommand, TyperGroup


def _is_argument(param: Any) -> bool:
    return not getattr(param, "opts", [""])[0].startswith("-")


def _argument_name(param: Any) -> str:
    return str(param.metavar or (param.name or "").upper())


def _usage_pieces(command: Any, ctx: Any) -> list[str]:
    pieces = ["[OPTIONS]"] if any(not _is_argument(p) for p in command.get_params(ctx)) else []
    for param in command.get_params(ctx):
        if _is_argument(param):
            name = _argument_name(param)
            pieces.append(name if param.required else f"[{name}]")
    return pieces


def _default(param: Any) -> str | None:
    if getattr(param, "is_flag", False) or getattr(param, "show_default", True) is False:
        return None
    default = param.default
    if default is None or callable(default):
        return None
    return str(default)


def _option_rows(command: Any, ctx: Any) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    arguments: list[tuple[str, str]] = []
    options: list[tuple[str, str]] = []
    for param in command.get_params(ctx):
        if getattr(param, "hidden", False):
            continue
        help_text = " ".join(str(getattr(param, "help", None) or "").split())
        if _is_argument(param):
            arguments.append((_argument_name(param), help_text))
            continue
        name = " / ".join([", ".join(param.opts), *getattr(param, "secondary_opts", [])])
        if not getattr(param, "is_flag", False):
            name += f" {param.metavar or 'VALUE'}"
        default = _default(param)
        if default is not None:
            help_text += f"  [default: {default}]"
        options.append((name, help_text))
    return arguments, options


def _write_page(command: Any, ctx: Any, formatter: Any) -> None:
    formatter.write_usage(ctx.command_path, " ".join(command.collect_usage_pieces(ctx)))
    if command.help:
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(" ".join(command.help.split("\n\n")[0].split()))
    arguments, options = _option_rows(command, ctx)
    for title, rows in (("Arguments", arguments), ("Options", options)):
        if rows:
            with formatter.section(title):
                formatter.write_dl(rows)


class Command(TyperCommand):
    """A command whose ``--help`` page is :func:`_write_page`'s."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return _usage_pieces(self, ctx)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _write_page(self, ctx, formatter)


class Group(TyperGroup):
    """The ``rummykit`` command group, with the same plain help page and its commands."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _write_page(self, ctx, formatter)
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=70)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)
