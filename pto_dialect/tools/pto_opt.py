"""``pto-opt``: xdsl-opt with the ``pto`` dialect, our passes and targets, and clean errors.

A thin subclass of :class:`xdsl.xdsl_opt_main.xDSLOptMain`. Differences from ``xdsl-opt``:

* upstream MLIR ops that xDSL 0.75 lacks or verifies too strictly are registered in place of
  xDSL's (``linalg.vecmat``/``matvec``, mixed-type ``linalg.matmul``, ``arith.remf``);
* invalid input prints the diagnostic (op, message, location) and exits with status 1,
  without a Python traceback; ``--verify-diagnostics`` keeps xdsl-opt's behaviour;
* ``--version`` prints the pto-xdsl and xDSL versions.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from xdsl.utils.exceptions import DiagnosticException, ParseError, PassFailedException
from xdsl.xdsl_opt_main import xDSLOptMain


def _versions() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        ours = version("pto-xdsl")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        ours = "unknown"
    return f"pto-opt (pto-xdsl) {ours}, xDSL {version('xdsl')}"


class PTOOptMain(xDSLOptMain):
    def register_all_dialects(self):
        super().register_all_dialects()
        try:
            from pto_dialect.upstream import register_upstream_overrides
        except ImportError:  # pragma: no cover
            return
        register_upstream_overrides(self.ctx)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser):
        # xdsl-opt already owns -v/--version; give it our text (its format has no braces).
        self.version_format = _versions().replace("{", "{{").replace("}", "}}")
        super().register_all_arguments(arg_parser)

    def run(self):
        try:
            super().run()
        except ParseError as e:
            print(e, file=sys.stderr)
            raise SystemExit(1) from None
        except (DiagnosticException, PassFailedException) as e:
            print(e, file=sys.stderr)
            for note in getattr(e, "__notes__", ()):
                print(note, file=sys.stderr)
            raise SystemExit(1) from None
        except (ValueError, KeyError) as e:
            # Errors raised while reading input or running a pass on malformed IR.
            print(f"pto-opt: error: {e}", file=sys.stderr)
            raise SystemExit(1) from None


def main(args: Sequence[str] | None = None) -> None:
    try:
        tool = PTOOptMain(args=args)  # parses the pass pipeline: unknown passes/options raise
    except (ValueError, KeyError, TypeError) as e:
        print(f"pto-opt: error: {e}", file=sys.stderr)
        raise SystemExit(1) from None
    try:
        tool.run()
    except FileNotFoundError as e:
        print(f"pto-opt: error: {e}", file=sys.stderr)
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
