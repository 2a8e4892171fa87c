"""Table-driven encoder/decoder for PTO block commands (PTO-SPEC 3).

Everything here is generic over :data:`pto_dialect.isa.forms.FORMS`; there is no per-command
bit manipulation.

Stream formats
--------------
* A *program word* is ``(width, value)`` with width 16, 32 or 64 (L.BSTOP). :func:`encode_program` returns
  such a list; :func:`decode_program` accepts it, and also plain ``int`` items (= 32-bit).
* Bytes: commands are little-endian (PTO-SPEC 3); a 16-bit parcel with bit 0 clear is a 16-bit
  command (C.BSTOP, C.B.DIMI), otherwise the parcel and the next one form a 32-bit command
  (see the note in :mod:`pto_dialect.isa.forms`). :func:`program_to_bytes`,
  :func:`split_bytes`.
* Hex text: one word per line, ``0x%08X`` for 32-bit and ``0x%04X`` for 16-bit commands (the
  digit count gives the width); ``#``/``//`` comments and blank lines are ignored.
  :func:`write_hex`, :func:`read_hex`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.isa.asm import print_command, strip_comment
from pto_dialect.isa.commands import (
    BFpatr,
    BIot,
    CBStartStd,
    Command,
    check_reserved,
    reserved_values,
)
from pto_dialect.isa.errors import AsmSyntaxError, EncodeError
from pto_dialect.isa.forms import DECODE_ORDER, FORMS, Form

Word = tuple[int, int]
"""(width in bits, value)."""


def form_of(cmd: Command) -> Form:
    """The encoding form of ``cmd``; :class:`EncodeError` when it has none."""
    for form in FORMS:
        if form.implies(cmd):
            return form
    if not isinstance(cmd, Command):
        raise EncodeError(f"a {type(cmd).__name__} is not a PTO block command")
    if isinstance(cmd, BFpatr) and cmd.cscale_en:
        raise EncodeError(
            "B.FPATR CScaleEn=1 has no binary encoding: pto-spec v0.58 reserves B.FPATR bits "
            "10:9 (D11); use the assembly target, or CScaleEn=0"
        )
    why = "; ".join(reserved_values(cmd)) or "no encoding form matches its attributes"
    raise EncodeError(f"cannot encode {_describe(cmd)}: {why}")


def _describe(cmd: Command) -> str:
    """The command as assembly text when it prints, else its mnemonic."""

    try:
        return print_command(cmd)
    except Exception:  # noqa: BLE001 - a command too broken to print
        return cmd.mnemonic


def decode_form(word: int, width: int = 32) -> Form:
    """The form that decodes ``word``; PTOFault(IllegalInstruction) for an unknown word."""
    if width not in DECODE_ORDER:
        raise ValueError(f"command width must be 16, 32 or 64, not {width}")
    if not 0 <= word < 1 << width:
        raise ValueError(f"0x{word:X} does not fit in {width} bits")
    for form in DECODE_ORDER[width]:
        if word & form.mask == form.match and word & form.reserved_bits == 0:
            return form
    digits = width // 4
    raise PTOFault(
        FaultKind.ILLEGAL_INSTRUCTION,
        f"0x{word:0{digits}X} is not a PTO block command ({width}-bit)",
    )


def encode(cmd: Command) -> int:
    """Encode one command to its word (16- or 32-bit, see :func:`width_of`).

    Refuses (EncodeError) a field value that is not an int fitting its bit field, and a
    command that has no form or whose word would decode as another form (the B.IOT overlap:
    a destination form with SizeCode 0 and hand T is the source-only word).
    """
    form = form_of(cmd)
    word = form.match
    for fld in form.fields:
        value = getattr(cmd, fld.name)
        if isinstance(value, bool):
            value = int(value)
        if not isinstance(value, int) or not 0 <= value < 1 << fld.width:
            raise EncodeError(
                f"{cmd.mnemonic} field {fld.name}={value!r} does not fit in {fld.width} bits"
            )
        word |= fld.insert(value)
    if decode_form(word, form.width) is not form:
        raise EncodeError(
            f"cannot encode {cmd!r}: its word 0x{word:08X} decodes as a different form "
            f"({decode_form(word, form.width).name}); " + _OVERLAP_NOTE.get(form.cls, "")
        )
    return word


_OVERLAP_NOTE = {
    BIot: "SizeCode 0 selects the source-only B.IOT form",
    CBStartStd: "C.BSTART.STD BrType 0 is the C.BSTOP word",
}


def width_of(cmd: Command) -> int:
    """16 for the compressed commands, 64 for L.BSTOP, else 32."""
    return form_of(cmd).width


def decode(word: int, width: int = 32, *, strict: bool = False) -> Command:
    """Decode one word. Unknown words raise PTOFault(IllegalInstruction); reserved field
    values decode into the command and raise only when ``strict`` (see ``check_reserved``)."""
    form = decode_form(word, width)
    attrs = dict(form.fixed)
    for fld in form.fields:
        attrs[fld.name] = fld.extract(word)
    cmd = form.cls(**attrs)
    if strict:
        check_reserved(cmd)
    return cmd


def encode_program(cmds: Iterable[Command]) -> list[Word]:
    """Encode a command list to ``(width, value)`` words."""
    return [(width_of(c), encode(c)) for c in cmds]


def decode_program(words: Iterable[int | Word], *, strict: bool = False) -> list[Command]:
    """Decode ``(width, value)`` words (a plain int is a 32-bit word)."""
    out = []
    for item in words:
        width, value = (32, item) if isinstance(item, int) else item
        out.append(decode(value, width, strict=strict))
    return out


def program_to_bytes(words: Iterable[Word]) -> bytes:
    """Little-endian byte stream of encoded words. A word :func:`split_bytes` could not find
    again (the 64-bit L.BSTOP, a 32-bit word with bit 0 clear such as the fused BSTART.CALL:
    the ASL gives an instruction's length to its decoder and has no bit-0 rule for them) is
    refused with a ValueError rather than written ambiguously."""
    out = []
    for width, value in words:
        if width not in (16, 32) or (width == 16) != (value & 1 == 0):
            raise ValueError(
                f"the {width}-bit word 0x{value:0{width // 4}X} cannot be put in a byte stream: "
                "commands are split by bit 0 (clear: 16-bit, set: 32-bit); use program words "
                "or hex text, which carry the width"
            )
        out.append(value.to_bytes(width // 8, "little"))
    return b"".join(out)


def split_bytes(data: bytes) -> list[Word]:
    """Split a little-endian byte stream into ``(width, value)`` words (16-bit parcels with
    bit 0 clear are 16-bit commands; others start a 32-bit command)."""
    words: list[Word] = []
    i = 0
    while i < len(data):
        if i + 2 > len(data):
            raise ValueError(f"truncated command at byte offset {i}")
        parcel = int.from_bytes(data[i : i + 2], "little")
        if parcel & 1 == 0:
            words.append((16, parcel))
            i += 2
            continue
        if i + 4 > len(data):
            raise ValueError(f"truncated 32-bit command at byte offset {i}")
        words.append((32, int.from_bytes(data[i : i + 4], "little")))
        i += 4
    return words


def write_hex(words: Iterable[Word]) -> str:
    """One word per line: ``0x%08X`` (32-bit), ``0x%04X`` (16-bit), ``0x%016X`` (64-bit)."""
    lines = [f"0x{v:0{w // 4}X}" for w, v in words]
    return "\n".join(lines) + ("\n" if lines else "")


_HEX_LINE = re.compile(r"(?:0[xX])?([0-9a-fA-F]+)")


def _hex_lines(text: str) -> list[tuple[int, int, int]]:
    out: list[tuple[int, int, int]] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = strip_comment(raw).strip()
        if not line:
            continue
        m = _HEX_LINE.fullmatch(line)
        if not m or len(m.group(1)) not in (4, 8, 16):
            raise AsmSyntaxError(
                f"expected one hex word (0x + 4, 8 or 16 hex digits), got {line!r}",
                n,
                raw.find(line) + 1,
                raw,
            )
        out.append((n, len(m.group(1)) * 4, int(m.group(1), 16)))
    return out


def read_hex(text: str) -> list[Word]:
    """Parse :func:`write_hex` output (4 hex digits = 16-bit, 8 = 32-bit, 16 = 64-bit)."""
    return [(w, v) for _, w, v in _hex_lines(text)]


def encode_hex(cmds: Sequence[Command]) -> str:
    return write_hex(encode_program(cmds))


def decode_hex(text: str, *, strict: bool = False) -> list[Command]:
    """Hex text -> commands. An undecodable word raises PTOFault naming its line."""
    out = []
    for n, w, v in _hex_lines(text):
        try:
            out.append(decode(v, w, strict=strict))
        except PTOFault as e:
            raise PTOFault(e.kind, f"line {n}: {e.message}", e.op) from None
    return out
