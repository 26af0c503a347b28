"""Export the GraphQL SDL to ``docs/schema.graphql``, or check that the file matches.

``python -m services.api.graphql.sdl`` writes it; ``--check`` exits 1 on drift
(the test suite runs the same comparison), so the API contract changes only as
a reviewed diff.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from services.api.graphql.schema import schema

DEFAULT_PATH = Path(__file__).resolve().parents[3] / "docs" / "schema.graphql"


def current_sdl() -> str:
    return schema.as_str().rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--output", type=Path, default=DEFAULT_PATH)
    parser.add_argument("--check", action="store_true", help="exit 1 if the file differs")
    args = parser.parse_args(argv)
    sdl = current_sdl()
    if args.check:
        on_disk = args.output.read_text() if args.output.exists() else ""
        if on_disk != sdl:
            print(
                f"{args.output} is out of date: run python -m services.api.graphql.sdl",
                file=sys.stderr,
            )
            return 1
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(sdl)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
