"""What every CLI command shares: settings, the store, one-line errors."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import typer
from rich.console import Console

from provgraph.config import Settings, load_settings
from provgraph.errors import ProvgraphError
from provgraph.store.factory import open_store
from provgraph.store.port import GraphStore

console = Console()
err_console = Console(stderr=True)

P = ParamSpec("P")
R = TypeVar("R")


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print one red line on stderr and return the Exit to raise."""
    err_console.print(f"[bold red]error:[/] {message}", highlight=False, markup=True)
    return typer.Exit(code)


def one_line_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn library errors (and OS errors) into one clear line and exit code 2, no traceback."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except ProvgraphError as exc:
            raise fail(str(exc)) from None
        except OSError as exc:
            raise fail(f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": ")) from None
        except KeyboardInterrupt:
            err_console.print("interrupted")
            sys.exit(130)

    return wrapper


def settings_and_store() -> tuple[Settings, GraphStore]:
    settings = load_settings()
    return settings, open_store(settings)
