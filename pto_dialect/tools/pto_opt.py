"""``pto-opt``: the PTO optimizer driver -- xdsl-opt with the ``pto`` dialect, our passes,
targets and frontends, and a tool boundary that turns every error into one diagnostic.

A subclass of :class:`xdsl.xdsl_opt_main.xDSLOptMain`. Differences from ``xdsl-opt``:

* upstream MLIR ops that xDSL 0.75 lacks or verifies too strictly are registered in place of
  xDSL's (``linalg.vecmat``/``matvec``, mixed-type ``linalg.matmul``, ``arith.remf``);
* after parsing, SSA dominance and float widths are checked
  (:mod:`pto_dialect.ssa_checks`), which xDSL 0.75 does not do;
* every error is one diagnostic on stderr and exit status 1, never a traceback
  (:mod:`pto_dialect.tools.boundary`): parse errors with their location, an exception inside
  xDSL's parser as a malformed-input error at the parser's position, verifier errors at the
  op's own source line (not a module dump), an undefined value at its first use
  (:mod:`pto_dialect.upstream.source_diagnostics`); a misspelt pass or pass option gets a
  suggestion and the list there is; an unexpected error says it is a bug and how to report
  it (``--debug`` shows the traceback); ``--verify-diagnostics`` keeps xdsl-opt's behaviour;
* ``--print-ir-after-all`` prints the IR after every pass on stderr, and with
  ``--time-passes`` the sub-passes of ``pto-lower`` are timed and dumped too
  (:data:`passes.instrument.SUB_PASS_OBSERVERS`);
* ``--help`` lists our passes, targets and frontends; ``--help-upstream`` lists xDSL's;
* ``--version`` prints the pto-xdsl and xDSL versions.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import sys
from collections.abc import Sequence

from xdsl.frontend.mlir import MLIRFrontend
from xdsl.printer import Printer
from xdsl.utils.arg_spec import parse_pipeline
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException
from xdsl.xdsl_opt_main import xDSLOptMain

from passes import get_all_passes
from passes.instrument import SUB_PASS_OBSERVERS
from pto_dialect.ssa_checks import check_module
from pto_dialect.tools.boundary import ToolError, first_line, frames, guarded, parser_location
from pto_dialect.upstream import register_upstream_overrides
from pto_dialect.upstream.source_diagnostics import SourceParser, did_you_mean, located_message
from pto_dialect.upstream.xdsl_fixes import check_dense_sizes

TOOL = "pto-opt"

_PASS_SUMMARIES = {
    "convert-linalg-to-pto": "linalg GEMV / matmul / MX / floor-mod / elementwise -> pto ops",
    "pto-tile-to-capacity": "tensor-level pto ops -> tile-level tload / compute / tstore",
    "pto-form-blocks": "tile ops -> pto.block ops of ISA commands",
    "pto-assign-registers": "give each block's tiles their Local registers",
    "pto-lower": "the four passes above in order; pto-lower{level=tile} stops at tiles",
    "pto-quantize-mx": "constant contraction weights -> MX codes and E8M0 scales "
    "({format=mxfp8})",
}

_HEAD = """\
pto-opt: the optimizer driver of pto-xdsl, a toolchain for the PTO tile ISA.

Reads MLIR (linalg / arith / tensor / pto), PTO assembly (.s) or encoded words (.hex),
verifies it against the ISA's legality rules, runs passes and writes MLIR, assembly or
hex words.

PTO passes (-p, comma separated; options in braces):
"""

_TAIL = """
PTO targets (-t):   pto-asm (block assembly), pto-bin (hex words), mlir (default)
PTO frontends:      .s / -f pto-asm (assembly), .hex / -f pto-bin (hex words), .mlir

examples:
  pto-opt kernel.mlir -p pto-lower -t pto-asm
  pto-opt kernel.mlir -p 'pto-lower{level=tile}'
  pto-opt kernel.pto.s -t pto-bin > kernel.hex

Every error is one diagnostic and exit status 1; --debug shows the traceback of an
internal error. xDSL's own passes, targets and frontends stay available: --help-upstream.
"""


def description() -> str:
    """The ``--help`` text: what pto-opt is, then every pass of :func:`passes.get_all_passes`
    (a pass without a summary here shows its docstring's first line)."""

    names = list(get_all_passes())
    order = [n for n in _PASS_SUMMARIES if n in names] + [n for n in names if n not in _PASS_SUMMARIES]
    lines = []
    for name in order:
        summary = _PASS_SUMMARIES.get(name)
        if summary is None:

            doc = (get_all_passes()[name]().__doc__ or "").strip()
            summary = doc.splitlines()[0].replace("``", "") if doc else ""
        lines.append(f"  {name:<22}  {summary}")
    return _HEAD + "\n".join(lines) + "\n" + _TAIL


class _PTOArgumentParser(argparse.ArgumentParser):
    """Builds the description (which imports the passes) only when help is printed."""

    def format_help(self) -> str:
        self.description = description()
        return super().format_help()


def _versions() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        ours = version("pto-xdsl")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        ours = "unknown"
    return f"pto-opt (pto-xdsl) {ours}, xDSL {version('xdsl')}"


class _UpstreamHelp(argparse.Action):
    """``--help-upstream``: every pass, target and frontend the xDSL multiverse offers."""

    def __init__(self, option_strings, dest, tool: PTOOptMain, **kwargs):
        super().__init__(option_strings, dest, nargs=0, **kwargs)
        self.tool = tool

    def __call__(self, parser, namespace, values, option_string=None):
        import textwrap

        for title, names in (
            ("passes", self.tool.available_passes),
            ("targets", self.tool.available_targets),
            ("frontends", self.tool.available_frontends),
        ):
            print(f"all {title} (PTO and xDSL):")
            print(textwrap.fill(", ".join(names), 88, initial_indent="  ", subsequent_indent="  "))
        parser.exit()


@dataclasses.dataclass(frozen=True)
class SourceMLIRFrontend(MLIRFrontend):
    """xDSL's MLIR frontend with :class:`SourceParser`: ops keep their source positions."""

    def parse(self, ctx, input, input_name: str = "input"):  # noqa: A002 - xDSL's name
        return SourceParser(ctx, input.read(), input_name).parse_module(not self.no_implicit_module)


def _dump(title: str, module) -> None:
    """MLIR's ``--print-ir-after-all`` block on stderr."""
    print(f"// -----// IR Dump After {title} //----- //", file=sys.stderr)
    Printer(stream=sys.stderr).print_op(module)
    print("\n", file=sys.stderr)


class PTOOptMain(xDSLOptMain):
    def __init__(self, args: Sequence[str] | None = None):
        self._stage = "setup"
        super().__init__(description="", args=args)

    def register_all_frontends(self):
        super().register_all_frontends()
        self.available_frontends["mlir"] = lambda: SourceMLIRFrontend

    def setup_pipeline(self):
        self.check_pipeline()
        super().setup_pipeline()
        if not self.args.print_ir_after_all:
            return
        inner = self.pipeline.callback

        def callback(previous, module, following) -> None:
            if inner is not None:
                inner(previous, module, following)
            if previous is not None:
                _dump(previous.name, module)

        self.pipeline = dataclasses.replace(self.pipeline, callback=callback)

    def check_pipeline(self) -> None:
        """Every pass of ``-p`` exists and has the options given, else one diagnostic with a
        suggestion (``-p pto-lowr``: did you mean 'pto-lower'?) and what there is."""
        for spec in parse_pipeline(self.args.passes):
            if spec.name not in self.available_passes:
                raise ToolError(
                    f"unknown pass '{spec.name}'{did_you_mean(spec.name, self.available_passes)}"
                    "; pto-opt --help lists the PTO passes, --help-upstream all passes"
                )
            cls = self.available_passes[spec.name]()
            options = [f.name for f in dataclasses.fields(cls) if f.init and f.name != "name"]
            for given in spec.parameters:
                key = given.replace("-", "_")
                if key in options:
                    continue
                shown = [o.replace("_", "-") for o in options]
                there = f"its options: {', '.join(shown)}" if shown else "it takes no options"
                hint = did_you_mean(given.replace("_", "-"), shown)
                raise ToolError(f"pass '{spec.name}' has no option '{given}'{hint}; {there}")

    def register_all_dialects(self):
        super().register_all_dialects()

        register_upstream_overrides(self.ctx)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser):
        # xdsl-opt already owns -v/--version; give it our text (its format has no braces).
        self.version_format = _versions().replace("{", "{{").replace("}", "}}")
        arg_parser.formatter_class = argparse.RawDescriptionHelpFormatter
        arg_parser.__class__ = _PTOArgumentParser
        super().register_all_arguments(arg_parser)
        short_help = {
            "passes": "pass pipeline, e.g. pto-lower or 'pto-lower{level=tile}' (PTO passes "
            "above; all with --help-upstream)",
            "target": "output: mlir (default), pto-asm, pto-bin (all with --help-upstream)",
            "frontend": "input format when the file extension does not say it: mlir, "
            "pto-asm, pto-bin (all with --help-upstream)",
        }
        for action in arg_parser._actions:  # pyright: ignore[reportPrivateUsage]
            if action.dest in short_help:
                action.help = short_help[action.dest]
        arg_parser.add_argument(
            "--help-upstream",
            action=_UpstreamHelp,
            tool=self,
            help="list every pass, target and frontend, xDSL's included, and exit",
        )
        arg_parser.add_argument(
            "--debug",
            action="store_true",
            help="on an internal error, show the Python traceback",
        )
        arg_parser.add_argument(
            "--print-ir-after-all",
            action="store_true",
            help="print the IR after every pass, and after every sub-pass of pto-lower, on "
            "stderr ('// -----// IR Dump After <pass> //----- //')",
        )

    # -- stages: each knows how to describe its failures -----------------------------------

    def parse_chunk(self, chunk, file_extension, start_offset=0):
        self._stage = "parse"
        data = chunk.read()
        if isinstance(data, bytes):
            try:
                data.decode("utf-8")
            except UnicodeDecodeError as e:
                raise ToolError(
                    f"{self.get_input_name()}: the input is not UTF-8 text "
                    f"(byte {e.start}: {e.reason})"
                ) from None
        if (self.args.frontend or file_extension) == "mlir":

            check_dense_sizes(data.decode("utf-8"), self.get_input_name())
        try:
            module = super().parse_chunk(io.BytesIO(data), file_extension, start_offset)
        except (ParseError, DiagnosticException, ToolError):
            raise
        except Exception as e:
            if isinstance(e, ValueError) and _raised_by_us(e):
                raise ToolError(str(e)) from e  # our frontends' own diagnostics
            # an exception inside xDSL's parser: malformed input
            raise ToolError(_malformed(e, self.get_input_name())) from e
        if module is not None:
            self._stage = "verify"

            check_module(module)
        return module

    def prepare_input(self):
        try:
            return super().prepare_input()
        except ValueError as e:
            if "file extension" not in str(e):
                raise
            raise ToolError(
                f"{self.get_input_name()}: unknown file extension (inputs: .mlir, .s, .hex; "
                "or say the format with -f mlir|pto-asm|pto-bin)"
            ) from None

    def apply_passes(self, prog):
        self._stage = "verify"
        _verify(prog)
        self._stage = "pass"
        observer = self.sub_pass_observer()
        if observer is None:
            super().apply_passes(prog)
            return
        SUB_PASS_OBSERVERS.append(observer)
        try:
            super().apply_passes(prog)
        finally:
            SUB_PASS_OBSERVERS.remove(observer)

    def sub_pass_observer(self):
        """What ``--time-passes`` / ``--print-ir-after-all`` do after a sub-pass of a pipeline
        pass (``pto-lower``): a timing line as xDSL prints one per pass, an IR dump."""
        timing, dump = self.args.time_passes, self.args.print_ir_after_all
        if not (timing or dump):
            return None

        def observe(name: str, module, seconds: float) -> None:
            if timing:
                print(f"Pass {name} took {seconds} seconds")
            if dump:
                _dump(name, module)

        return observe

    def output_resulting_program(self, prog):
        self._stage = "output"
        return super().output_resulting_program(prog)

    def describe(self, e: BaseException) -> str | None:
        """The message of an error escaping :meth:`run`, by stage (``None``: the defaults)."""
        if isinstance(e, ParseError | ToolError):
            return None
        if isinstance(e, DiagnosticException):
            return located_message(e, TOOL)
        if self._stage in ("pass", "output") and type(e) is ValueError:
            # our passes and targets report unsupported input as ValueError
            return f"{TOOL}: error: {e}"
        if self._stage == "verify" and isinstance(e, Exception) and not isinstance(
            e, RecursionError | MemoryError
        ):
            return f"{TOOL}: error: {_malformed(e, self.get_input_name())}"
        return None


def _malformed(e: BaseException, name: str) -> str:

    where = parser_location(e)
    op = _failing_op(e)
    what = "malformed input"
    if op is not None:
        what = f"malformed '{op}' op"
    reason = first_line(e)
    if isinstance(e, OverflowError):
        reason = "a value is out of range for its type"
    elif isinstance(e, RecursionError):
        reason = "nested too deeply"
    return f"{where or name}: {what}: {reason}"


def _raised_by_us(e: BaseException) -> bool:
    """True when the innermost frame of ``e`` is pto-xdsl code, not xDSL's."""

    last = None
    for frame in frames(e.__traceback__):
        last = frame
    if last is None:
        return False
    module = last.f_globals.get("__name__", "")
    return module.split(".")[0] in ("pto_dialect", "passes", "interpreter")


def _failing_op(e: BaseException) -> str | None:
    from xdsl.ir import Operation


    name = None
    for frame in frames(e.__traceback__):
        obj = frame.f_locals.get("self")
        if isinstance(obj, Operation):
            name = obj.name
    return name


def _verify(module) -> None:
    """``module.verify()``; an exception other than a diagnostic names the op it hit."""
    try:
        module.verify()
    except (DiagnosticException, RecursionError, MemoryError):
        raise
    except Exception as e:
        op = _failing_op(e)

        who = f"'{op}' op" if op else "the module"
        raise VerifyException(f"{who} is malformed: {first_line(e)}") from e


def main(args: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if args is None else args)
    debug = "--debug" in argv
    holder: dict[str, PTOOptMain] = {}

    def body() -> int:
        from xdsl.utils.exceptions import ArgSpecParseError

        try:
            tool = PTOOptMain(args=argv)  # parses the pass pipeline: unknown passes raise
        except (ValueError, KeyError, TypeError) as e:
            raise ToolError(str(e).strip("'\"")) from None
        except ArgSpecParseError as e:  # a BaseException in xDSL 0.75: a malformed -p text
            raise ToolError(str(e).strip()) from None
        holder["tool"] = tool
        if tool.args.input_file is not None:
            import os

            if os.path.isdir(tool.args.input_file):
                raise ToolError(f"'{tool.args.input_file}' is a directory, not an input file")
        tool.run()
        return 0

    def describe(e: BaseException) -> str | None:
        tool = holder.get("tool")
        return tool.describe(e) if tool is not None else None

    status = guarded(TOOL, body, debug=debug, describe=describe)
    if args is None:
        raise SystemExit(status)
    return status


if __name__ == "__main__":
    main()
