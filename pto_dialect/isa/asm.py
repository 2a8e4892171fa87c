"""Block assembly: canonical printer and parser for PTO block commands (PTO-SPEC 7).

Canonical text (what :func:`print_command` writes; the parser accepts it and the listed
alternatives):

==================  ==========================================================================
BSTART (CUBE)       ``BSTART.TGEMVMX.BIAS FP16``; input also ``BSTART.CUBE TGEMVMX.BIAS, FP16``,
                    ``BSTART.CUBE TGEMV_MX_BIAS, FP16`` and ``BSTART.CUBE 21, FP16``. A reserved
                    function prints as ``BSTART.CUBE 8, FP16``.
BSTART (TLSU)       ``BSTART.TLOAD FP32`` (``BSTART.TLSU 0, FP32`` on input / when reserved).
BSTART (TEPL)       ``BSTART.SFU TREM, S32`` / ``BSTART.VEC TADD, FP16`` (engine from the
                    catalog); input also ``BSTART.TEPL 0, 4, S32``; an unassigned selector
                    prints as ``BSTART.TEPL 0, 5, FP16``.
B.DATR              ``B.DATR <Layout>, <DataType>, <Pad>[, <CMode>][, <RMode>][, SAT][, CANON]``
                    e.g. ``B.DATR NORM, FP32, Zero``; non-default CMode/RMode/Sat/Canonicalize
                    follow as keywords (EQ..GE or CMODE<n>; RNONE/RNE/../RHB; SAT/NOSAT;
                    CANON/NOCANON). Input also accepts the spec's braced 7-field form
                    ``B.DATR {NORM, FP32, Zero, None, RNE, 0, 0}``, ``Layout<n>`` for any code,
                    ``byte0..byte3`` for the pad/ByteId union.
B.FPATR             ten decimal fields in D11 order (nine accepted on input: CScaleEn = 0).
B.DIM               ``B.DIM a0, 64, ->lb1`` (RegSrc, uimm17, LB).
C.B.DIMI            ``C.B.DIMI 64, ->lb2``.
B.IOT               ``B.IOT t#1, u#1, mask=1111`` / ``B.IOT m#1, mask=1111, last, ->m<4KB>`` /
                    ``B.IOT mask=1111, last, ->t<128B>``; sizes 128B..64KB (KiB accepted);
                    ``SZ<n>`` for a SizeCode without a size (0, 13-15); a malformed
                    source-only B.IOT with a nonzero SizeCode prints ``size=<SIZE>``.
B.IOR               ``B.IOR [a0, zero, zero], ->zero`` (missing sources/destination = zero;
                    ``[]`` accepted as an empty destination list).
B.IOS               ``B.IOS S1, mask=1000`` / ``B.IOS mask=1111, ->S255<256KB>``.
BSTOP / C.BSTOP     ``BSTOP`` / ``C.BSTOP`` / ``L.BSTOP`` (the 64-bit stop).
B.CATR              ``B.CATR {trap, atomic, aqrl, far, dr}`` (the set attributes; ``{}`` none;
                    ``aq``/``rl``/``aqrl``; braces optional on input).
C.BSTART            ``C.BSTART DIRECT, 1`` / ``C.BSTART COND, -6``: the operand is the signed
                    simm12 (halfwords; target = P + 2 * simm12). The spec's template takes a
                    label; this assembler has no labels, so the field value is written.
C.BSTART.STD/.FP    ``C.BSTART.STD FALL|IND|RET``; an unassigned BrType prints ``BRTYPE<n>``.
C.BSTART.SYS        ``C.BSTART.SYS FALL`` (the fixed word 0x0840).
XB                  ``XB 1023, 127`` (ACR-ID, C-ID): reserved in PTO, decodes only to be refused.
BSTART.STD/.FP/.SYS ``BSTART.STD DIRECT, 1`` / ``BSTART.FP COND, -4`` (signed simm17, halfwords)
                    / ``BSTART.STD FALL|IND|RET`` / ``BSTART.SYS FALL``; a reserved nonzero
                    payload prints after the transfer (``BSTART.SYS FALL, 1``).
BSTART DIRECT|COND  ``BSTART DIRECT, 8`` (lifecycle form, signed simm25 in halfwords).
BSTART.CALL         ``BSTART.CALL -1, 3, ->ra`` (simm12 target, uimm5 return offset) and
                    ``BSTART.ICALL 2, ->ra``: the fused call starts.
==================  ==========================================================================

Mnemonics, hands, keywords and data types are case-insensitive on input. GPR selectors 24-31
(reserved) are written ``r24``..``r31``; ``r<n>`` is accepted for any selector.

What was found, and where (read only): the B.DATR/B.DIM/C.B.DIMI/B.IOT/B.IOR/B.IOS assembly
templates are the ``asm`` fields of pto-spec ``spec/catalog/command-forms.json`` and
``docs/block/**``; concrete spellings (``B.DATR NORM, DTYPE_NONE, Zero``, ``->lb0``,
``B.IOT t#1, u#2, mask=1111``, ``->n<8KB>``, ``B.IOR [zero, sp, a0], ->x3``, the
``BSTART.SFU``/``BSTART.VEC`` engine aliases, ``HiF8``/``HiF4X2`` spellings, ``DTYPE_NONE``,
``Layout21``-style raw layouts) are from LinxISA/llvm-project
``llvm/test/MC/LinxISA/v058-pto-common-roundtrip.s``, ``v0583-datr-field-domains.s``,
``v058-dtype-keywords.s``, ``v058-tile-engine-aliases.s``, ``v058-pto-common-errors.s`` and
PTO-ISA/asl-model ``avs/cases/cube_internal_acc_hints/source.S``. The spec and the assembler
agree on every encoding checked (see tests/isa/test_encoding.py). The assembler's keyword
spelling of CMode/RMode/Sat/Canonicalize after the three positional B.DATR operands is only
partly visible (``RNONE``; ``cmode6`` rejected), so the keyword set above is this project's
choice.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pto_dialect.datatypes import DTYPE_NONE, RESERVED_CODES, TileDataType
from pto_dialect.isa.commands import (
    BRANCH_TYPE_NAMES,
    BSTART32_NAMES,
    CMODES,
    CUBE_FUNCTIONS,
    GPR_NAMES,
    HANDS,
    LAYOUTS,
    MASK_PE_MODES,
    PAD_VALUES,
    PE_MODE_MASKS,
    RMODES,
    TEPL_BY_NAME,
    TEPL_OPS,
    TLSU_FUNCTIONS,
    XB,
    BCatr,
    BDatr,
    BDim,
    BFpatr,
    BIor,
    BIos,
    BIot,
    BlockFamily,
    BStart,
    BStart32,
    BStartCall,
    BStartFp,
    BStartICall,
    BStartLong,
    BStartStd,
    BStartSys,
    BStop,
    CBDimi,
    CBStart,
    CBStartFp,
    CBStartStd,
    CBStartSys,
    CBStartTyped,
    CBStop,
    Command,
    DirectOrCond,
    LBStop,
    tile_name,
)
from pto_dialect.isa.errors import AsmSyntaxError
from pto_dialect.postprocess import FPATR_FIELD_WIDTHS

# ---------------------------------------------------------------------------------------------
# Spellings
# ---------------------------------------------------------------------------------------------

def dtype_text(code: int) -> str:
    if code == DTYPE_NONE:
        return "DTYPE_NONE"
    if code in RESERVED_CODES:
        return str(code)
    t = TileDataType(code)
    return t.asm  # HiF8 / HiF4X2 as in LinxISA v058-dtype-keywords.s


def size_text(code: int) -> str:
    if 1 <= code <= 12:
        n = 128 << (code - 1)
        return f"{n}B" if n < 1024 else f"{n // 1024}KB"
    return f"SZ{code}"


def gpr_text(code: int) -> str:
    return GPR_NAMES[code] if code < len(GPR_NAMES) else f"r{code}"


def _layout_text(code: int) -> str:
    return LAYOUTS.get(code, f"Layout{code}")


_CUBE_BY_MNEMONIC = {f.mnemonic: f for f in CUBE_FUNCTIONS.values()}
_CUBE_BY_NAME = {f.name: f for f in CUBE_FUNCTIONS.values()}
_TLSU_BY_MNEMONIC = {f.mnemonic: f for f in TLSU_FUNCTIONS.values()}
_TLSU_BY_NAME = {f.name: f for f in TLSU_FUNCTIONS.values()}


# ---------------------------------------------------------------------------------------------
# Printer
# ---------------------------------------------------------------------------------------------


def print_command(cmd: Command) -> str:
    """Canonical assembly text of one command."""
    if isinstance(cmd, BStart):
        dt = dtype_text(cmd.dtype)
        if cmd.family is BlockFamily.TEPL:
            op = TEPL_OPS.get((cmd.mode, cmd.function))
            if op is not None:
                return f"BSTART.{op.engine} {op.name}, {dt}"
            return f"BSTART.TEPL {cmd.mode}, {cmd.function}, {dt}"
        if cmd.mode != 0:
            raise ValueError(f"{cmd!r}: a {cmd.family} BSTART has no Mode field")
        table = CUBE_FUNCTIONS if cmd.family is BlockFamily.CUBE else TLSU_FUNCTIONS
        live = table.get(cmd.function)
        if live is not None:
            return f"BSTART.{live.mnemonic} {dt}"
        return f"BSTART.{cmd.family} {cmd.function}, {dt}"
    if isinstance(cmd, BDatr):
        parts = [_layout_text(cmd.layout), dtype_text(cmd.dtype), PAD_VALUES[cmd.pad]]
        if cmd.cmode:
            parts.append(CMODES[cmd.cmode] if cmd.cmode < len(CMODES) else f"CMODE{cmd.cmode}")
        if cmd.rmode:
            parts.append(RMODES[cmd.rmode])
        if cmd.sat:
            parts.append("SAT")
        if cmd.canonicalize:
            parts.append("CANON")
        return "B.DATR " + ", ".join(parts)
    if isinstance(cmd, BFpatr):
        return "B.FPATR " + ", ".join(str(int(v)) for v in cmd.fpatr.as_tuple())
    if isinstance(cmd, BDim):
        return f"B.DIM {gpr_text(cmd.reg)}, {cmd.imm}, ->lb{cmd.lb}"
    if isinstance(cmd, CBDimi):
        return f"C.B.DIMI {cmd.imm}, ->lb{cmd.lb}"
    if isinstance(cmd, BIot):
        if cmd.src0 is None and cmd.src1 is not None:
            raise ValueError(f"{cmd!r}: SrcTile1 without SrcTile0 has no assembly form")
        parts = [tile_name(s) for s in cmd.sources]
        parts.append(f"mask={PE_MODE_MASKS[cmd.pe_mode]}")
        if cmd.last:
            parts.append("last")
        if cmd.dst_hand is not None:
            parts.append(f"->{HANDS[cmd.dst_hand]}<{size_text(cmd.size_code)}>")
        elif cmd.size_code:
            parts.append(f"size={size_text(cmd.size_code)}")
        return "B.IOT " + ", ".join(parts)
    if isinstance(cmd, BIor):
        srcs = ", ".join(gpr_text(r) for r in cmd.sources)
        return f"B.IOR [{srcs}], ->{gpr_text(cmd.dst)}"
    if isinstance(cmd, BIos):
        mask = PE_MODE_MASKS[cmd.pe_mode]
        if cmd.size_code == 0:
            return f"B.IOS S{cmd.tid}, mask={mask}"
        return f"B.IOS mask={mask}, ->S{cmd.tid}<{size_text(cmd.size_code)}>"
    if isinstance(cmd, BStop):
        return "BSTOP"
    if isinstance(cmd, CBStop):
        return "C.BSTOP"
    if isinstance(cmd, LBStop):
        return "L.BSTOP"
    if isinstance(cmd, BCatr):
        return "B.CATR {" + ", ".join(_catr_flags(cmd)) + "}"
    if isinstance(cmd, CBStartTyped):
        return f"{cmd.mnemonic} {BRANCH_TYPE_NAMES.get(cmd.brtype, f'BRTYPE{cmd.brtype}')}"
    if isinstance(cmd, CBStartSys):
        return "C.BSTART.SYS FALL"
    if isinstance(cmd, DirectOrCond):
        name, bits = cmd.SIMM
        return f"{cmd.mnemonic} {cmd.transfer.name}, {_signed(getattr(cmd, name), bits)}"
    if isinstance(cmd, BStartCall):
        return f"BSTART.CALL {_signed(cmd.simm12, 12)}, {cmd.uimm5}, ->ra"
    if isinstance(cmd, XB):
        return f"XB {cmd.acr_id}, {cmd.cross_bid}"
    if isinstance(cmd, BStartICall):
        return f"BSTART.ICALL {cmd.uimm5}, ->ra"
    if isinstance(cmd, BStart32):
        name = BSTART32_NAMES.get(cmd.brtype, f"BRTYPE{cmd.brtype}")
        if name in ("DIRECT", "COND") or cmd.simm17:
            return f"{cmd.mnemonic} {name}, {_signed(cmd.simm17, 17)}"
        return f"{cmd.mnemonic} {name}"
    raise TypeError(f"{cmd!r} is not a PTO block command")


def _signed(value: int, bits: int) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def _simm_operand(op: _Op, ctx: _Ctx, bits: int, what: str) -> int:
    """A signed ``bits``-bit displacement in halfwords, returned as its raw field value."""
    if not re.fullmatch(r"[+-]?\d+", op.text):
        raise ctx.err(f"{what}: expected a signed simm{bits} (halfwords), got '{op.text}'", op.col)
    v = int(op.text)
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    if not lo <= v <= hi:
        raise ctx.err(f"{what}: simm{bits} {v} is outside {lo}..{hi}", op.col)
    return v & ((1 << bits) - 1)


def _parse_direct_cond(cls: type[DirectOrCond], ops: list[_Op], ctx: _Ctx) -> Command:
    """``<mnemonic> DIRECT|COND, <signed displacement in halfwords>``."""
    _want(ops, 2, cls.mnemonic, ctx)
    kind = ops[0].text.upper()
    if kind not in ("DIRECT", "COND"):
        raise ctx.err(f"{cls.mnemonic}: expected DIRECT or COND, got '{ops[0].text}'",
                      ops[0].col)  # fmt: skip
    return cls(int(kind == "COND"), _simm_operand(ops[1], ctx, cls.SIMM[1], cls.mnemonic))


def _parse_call(mn: str, ops: list[_Op], ctx: _Ctx) -> Command:
    """``BSTART DIRECT|COND, n`` / ``BSTART.CALL n, u, ->ra`` / ``BSTART.ICALL u, ->ra``."""
    if mn == "BSTART":
        return _parse_direct_cond(BStartLong, ops, ctx)
    _want(ops, 3 if mn == "BSTART.CALL" else 2, mn, ctx)
    if ops[-1].text.replace(" ", "").lower() != "->ra":
        raise ctx.err(f"{mn} writes ra: its last operand is '->ra'", ops[-1].col)
    uimm5 = _int(ops[-2], ctx, 5, "uimm5")
    if mn == "BSTART.ICALL":
        return BStartICall(uimm5)
    return BStartCall(_simm_operand(ops[0], ctx, 12, mn), uimm5)


def _catr_flags(cmd: BCatr) -> list[str]:
    """The spec's ``B.CATR {trap, atomic, <aq, rl, aqrl>, far, dr}`` keywords that are set."""
    order = "aqrl" if cmd.aq and cmd.rl else "aq" if cmd.aq else "rl" if cmd.rl else None
    flags = [("trap", cmd.trap), ("atomic", cmd.atom), (order, order), ("far", cmd.far),
             ("dr", cmd.dr)]  # fmt: skip
    return [name for name, on in flags if on]


_CATR_KEYWORDS = {"TRAP": ("trap",), "ATOMIC": ("atom",), "AQ": ("aq",), "RL": ("rl",),
                  "AQRL": ("aq", "rl"), "FAR": ("far",), "DR": ("dr",)}  # fmt: skip


def _parse_catr(rest: str, col: int, ctx: _Ctx) -> BCatr:
    text = rest.strip()
    if text.startswith("{"):
        if not text.endswith("}"):
            raise ctx.err("B.CATR: unclosed '{'", col)
        text = text[1:-1]
    vals = dict.fromkeys(("dr", "trap", "far", "atom", "aq", "rl"), 0)
    seen: set[str] = set()
    for word in (w.strip() for w in text.split(",")):
        if not word:
            continue
        key = word.upper()
        if key not in _CATR_KEYWORDS:
            raise ctx.err(f"B.CATR: unknown attribute '{word}' (trap, atomic, aq, rl, aqrl, "
                          "far, dr)", col)  # fmt: skip
        if key in seen:
            raise ctx.err(f"B.CATR: attribute '{word}' given twice", col)
        seen.add(key)
        for name in _CATR_KEYWORDS[key]:
            vals[name] = 1
    return BCatr(**vals)


def _parse_scalar_start(mn: str, ops: list[_Op], ctx: _Ctx) -> Command:
    if mn == "C.BSTART":
        return _parse_direct_cond(CBStart, ops, ctx)
    _want(ops, 1, mn, ctx)
    word = ops[0].text.upper()
    if mn == "C.BSTART.SYS":
        if word != "FALL":
            raise ctx.err("C.BSTART.SYS has only the form 'C.BSTART.SYS FALL'", ops[0].col)
        return CBStartSys()
    code = _transfer_code(ops[0], BRANCH_TYPE_NAMES, mn, ctx)
    return (CBStartStd if mn == "C.BSTART.STD" else CBStartFp)(code)


def _transfer_code(op: _Op, names: dict[int, str], mn: str, ctx: _Ctx) -> int:
    """The 3-bit transfer code named by ``op`` (a name of ``names`` or ``BRTYPE<n>``)."""
    word = op.text.upper()
    codes = {name: code for code, name in names.items()}
    m = re.fullmatch(r"BRTYPE([0-7])", word)
    if word in codes:
        return codes[word]
    if m:
        return int(m.group(1))
    raise ctx.err(f"{mn}: expected {', '.join(names.values())}, got '{op.text}'", op.col)


def _parse_bstart32(mn: str, ops: list[_Op], ctx: _Ctx) -> Command:
    _want(ops, (1, 2), mn, ctx)
    word = ops[0].text.upper()
    code = _transfer_code(ops[0], BSTART32_NAMES, mn, ctx)
    if word in ("DIRECT", "COND") and len(ops) != 2:
        raise ctx.err(f"{mn} {word} takes a signed simm17 (halfwords)", ops[0].col)
    simm = _simm_operand(ops[1], ctx, 17, mn) if len(ops) == 2 else 0
    cls = {"BSTART.STD": BStartStd, "BSTART.FP": BStartFp, "BSTART.SYS": BStartSys}[mn]
    return cls(code, simm)


def print_program(cmds: Iterable[Command], indent: str = "") -> str:
    """One canonical command per line."""
    lines = [indent + print_command(c) for c in cmds]
    return "\n".join(lines) + ("\n" if lines else "")


# ---------------------------------------------------------------------------------------------
# Parser
# ---------------------------------------------------------------------------------------------


class _Op:
    """One operand token with its 1-based column."""

    __slots__ = ("text", "col")

    def __init__(self, text: str, col: int):
        self.text = text
        self.col = col


class _Ctx:
    def __init__(self, line: int, raw: str, col0: int):
        self.line = line
        self.raw = raw
        self.col0 = col0

    def err(self, msg: str, col: int | None = None) -> AsmSyntaxError:
        return AsmSyntaxError(msg, self.line, col if col is not None else self.col0, self.raw)


def _split_operands(s: str, col: int, ctx: _Ctx) -> list[_Op]:
    ops: list[_Op] = []
    depth = 0
    start = 0
    i = 0
    closers = {"]": "[", ">": "<", "}": "{"}
    stack: list[str] = []
    while i < len(s):
        if s.startswith("->", i):
            i += 2
            continue
        c = s[i]
        if c in "[<{":
            stack.append(c)
            depth += 1
        elif c in closers:
            if not stack or stack[-1] != closers[c]:
                raise ctx.err(f"unbalanced '{c}'", col + i)
            stack.pop()
            depth -= 1
        elif c == "," and depth == 0:
            ops.append(_Op(s[start:i], col + start))
            start = i + 1
        i += 1
    if stack:
        raise ctx.err(f"unclosed '{stack[-1]}'", col + len(s))
    ops.append(_Op(s[start:], col + start))
    out = []
    for op in ops:
        stripped = op.text.strip()
        lead = len(op.text) - len(op.text.lstrip())
        if not stripped:
            raise ctx.err("empty operand", op.col)
        out.append(_Op(stripped, op.col + lead))
    return out


_INT = re.compile(r"(0[xX][0-9a-fA-F]+|\d+)")


def _int(op: _Op, ctx: _Ctx, bits: int, what: str) -> int:
    if not _INT.fullmatch(op.text):
        raise ctx.err(f"expected an unsigned integer for {what}, got '{op.text}'", op.col)
    v = int(op.text, 0) if op.text.lower().startswith("0x") else int(op.text, 10)
    if v >= 1 << bits:
        raise ctx.err(f"{what} {v} does not fit in {bits} bits (max {(1 << bits) - 1})", op.col)
    return v


def _dtype(op: _Op, ctx: _Ctx) -> int:
    t = op.text
    if t.upper() == "DTYPE_NONE":
        return DTYPE_NONE
    if _INT.fullmatch(t):
        return _int(op, ctx, 5, "DataType")
    try:
        return int(TileDataType.from_asm(t))
    except ValueError:
        raise ctx.err(f"unknown data type '{t}'", op.col) from None


def _gpr(text: str, col: int, ctx: _Ctx) -> int:
    t = text.strip().lower()
    if t in GPR_NAMES:
        return GPR_NAMES.index(t)
    m = re.fullmatch(r"r(\d+)", t)
    if m and int(m.group(1)) < 32:
        return int(m.group(1))
    raise ctx.err(f"unknown register '{text.strip()}'", col)


_SIZE = re.compile(r"(\d+)\s*(B|KB|KIB)|SZ(\d+)", re.IGNORECASE)


def _size(text: str, col: int, ctx: _Ctx, max_code: int = 15) -> int:
    m = _SIZE.fullmatch(text.strip())
    if m is None:
        raise ctx.err(f"bad tile size '{text}' (expected 128B .. 64KB)", col)
    if m.group(3) is not None:
        code = int(m.group(3))
        if code > max_code:
            raise ctx.err(f"SizeCode {code} does not fit its 4-bit field", col)
        return code
    n = int(m.group(1)) * (1 if m.group(2).upper() == "B" else 1024)
    for code in range(1, 13):
        if 128 << (code - 1) == n:
            return code
    raise ctx.err(f"tile size {text.strip()} is not 128 B * 2^k (128B .. 256KB)", col)


def _mask(op: _Op, ctx: _Ctx) -> int:
    m = re.fullmatch(r"mask\s*=\s*([01]{4})", op.text, re.IGNORECASE)
    if m is None:
        raise ctx.err(
            f"expected mask=XXXX (4 binary digits, PE0 leftmost), got '{op.text}'", op.col
        )
    if m.group(1) not in MASK_PE_MODES:
        allowed = ", ".join(PE_MODE_MASKS)
        raise ctx.err(
            f"mask {m.group(1)} is not encodable: the 3-bit PEMode expresses only {allowed}",
            op.col,
        )
    return MASK_PE_MODES[m.group(1)]


def _lb(op: _Op, ctx: _Ctx) -> int:
    m = re.fullmatch(r"->\s*lb([0-3])", op.text, re.IGNORECASE)
    if m is None:
        raise ctx.err(f"expected ->lb0, ->lb1 or ->lb2, got '{op.text}'", op.col)
    return int(m.group(1))


def _want(ops: list[_Op], n: int | tuple[int, ...], mnemonic: str, ctx: _Ctx) -> None:
    counts = (n,) if isinstance(n, int) else n
    if len(ops) not in counts:
        exp = " or ".join(str(c) for c in counts)
        raise ctx.err(f"{mnemonic} takes {exp} operand(s), got {len(ops)}")


def _parse_bstart(mn: str, ops: list[_Op], ctx: _Ctx) -> BStart:
    suffix = mn[len("BSTART.") :]
    if suffix in ("CUBE", "TLSU"):
        _want(ops, 2, mn, ctx)
        family = BlockFamily(suffix)
        by_mn, by_name = (
            (_CUBE_BY_MNEMONIC, _CUBE_BY_NAME) if suffix == "CUBE" else
            (_TLSU_BY_MNEMONIC, _TLSU_BY_NAME)
        )  # fmt: skip
        sel = ops[0].text.upper()
        if _INT.fullmatch(sel):
            fn = _int(ops[0], ctx, 5, "Function")
        elif sel in by_mn:
            fn = by_mn[sel].code
        elif sel in by_name:
            fn = by_name[sel].code
        else:
            raise ctx.err(f"unknown {suffix} operation '{ops[0].text}'", ops[0].col)
        return BStart(family, fn, _dtype(ops[1], ctx))
    if suffix == "TEPL":
        _want(ops, 3, mn, ctx)
        mode = _int(ops[0], ctx, 2, "Mode")
        fn = _int(ops[1], ctx, 5, "Function")
        return BStart(BlockFamily.TEPL, fn, _dtype(ops[2], ctx), mode)
    if suffix in ("SFU", "VEC"):
        _want(ops, 2, mn, ctx)
        op = TEPL_BY_NAME.get(ops[0].text.upper())
        if op is None:
            raise ctx.err(f"unknown tile operation '{ops[0].text}'", ops[0].col)
        if op.engine.value != suffix:
            raise ctx.err(
                f"{op.name} executes on {op.engine}; write BSTART.{op.engine} {op.name}",
                ops[0].col,
            )
        return BStart(BlockFamily.TEPL, op.function, _dtype(ops[1], ctx), op.mode)
    if suffix in _CUBE_BY_MNEMONIC or suffix in _TLSU_BY_MNEMONIC:
        _want(ops, 1, mn, ctx)
        if suffix in _CUBE_BY_MNEMONIC:
            return BStart(BlockFamily.CUBE, _CUBE_BY_MNEMONIC[suffix].code, _dtype(ops[0], ctx))
        return BStart(BlockFamily.TLSU, _TLSU_BY_MNEMONIC[suffix].code, _dtype(ops[0], ctx))
    raise ctx.err(f"unknown BSTART form '{mn}'")


_PAD_IN = {p.upper(): i for i, p in enumerate(PAD_VALUES)} | {f"BYTE{i}": i for i in range(4)}
_LAYOUT_IN = {name: code for code, name in LAYOUTS.items()}


def _datr_layout(op: _Op, ctx: _Ctx) -> int:
    t = op.text.upper()
    if t in _LAYOUT_IN:
        return _LAYOUT_IN[t]
    m = re.fullmatch(r"LAYOUT(\d+)", t)
    if m and int(m.group(1)) < 32:
        return int(m.group(1))
    raise ctx.err(f"unknown layout '{op.text}'", op.col)


def _datr_pad(op: _Op, ctx: _Ctx) -> int:
    t = op.text.upper()
    if t in _PAD_IN:
        return _PAD_IN[t]
    if _INT.fullmatch(t):
        return _int(op, ctx, 2, "PadValueOrByteId")
    raise ctx.err(f"unknown pad value '{op.text}' (Zero, Max, Min, Null, byte0..byte3)", op.col)


def _parse_datr(ops: list[_Op], ctx: _Ctx) -> BDatr:
    if len(ops) == 1 and ops[0].text.startswith("{"):
        inner = ops[0].text
        if not inner.endswith("}"):
            raise ctx.err("unclosed '{'", ops[0].col)
        f = _split_operands(inner[1:-1], ops[0].col + 1, ctx)
        _want(f, 7, "B.DATR {...}", ctx)
        cm = f[3].text.upper()
        cmode = (
            0
            if cm in ("NONE", "DEFAULT")
            else CMODES.index(cm)
            if cm in CMODES
            else _int(f[3], ctx, 3, "CMode")
        )
        rm = f[4].text.upper()
        rmode = (
            0
            if rm in ("NONE", "DEFAULT")
            else RMODES.index(rm)
            if rm in RMODES
            else _int(f[4], ctx, 3, "RMode")
        )
        return BDatr(
            _datr_layout(f[0], ctx),
            _dtype(f[1], ctx),
            _datr_pad(f[2], ctx),
            cmode,
            rmode,
            _int(f[5], ctx, 1, "Sat"),
            _int(f[6], ctx, 1, "Canonicalize"),
        )
    if len(ops) < 3:
        raise ctx.err(
            f"B.DATR takes <Layout>, <DataType>, <Pad>[, keywords], got {len(ops)} operand(s)"
        )
    vals = {"cmode": 0, "rmode": 0, "sat": 0, "canonicalize": 0}
    seen: set[str] = set()
    for op in ops[3:]:
        k = op.text.upper()
        if k in CMODES or re.fullmatch(r"CMODE[0-7]", k):
            key, v = "cmode", CMODES.index(k) if k in CMODES else int(k[5:])
        elif k in RMODES:
            key, v = "rmode", RMODES.index(k)
        elif k in ("SAT", "NOSAT"):
            key, v = "sat", int(k == "SAT")
        elif k in ("CANON", "NOCANON", "CANONICALIZE"):
            key, v = "canonicalize", int(k != "NOCANON")
        else:
            raise ctx.err(f"unknown B.DATR attribute '{op.text}'", op.col)
        if key in seen:
            raise ctx.err(f"B.DATR {key} given twice", op.col)
        seen.add(key)
        vals[key] = v
    return BDatr(_datr_layout(ops[0], ctx), _dtype(ops[1], ctx), _datr_pad(ops[2], ctx), **vals)


_TILE = re.compile(r"([tumn])#(\d+)", re.IGNORECASE)
_DEST = re.compile(r"->\s*([tumn])\s*<([^>]*)>", re.IGNORECASE)


def _parse_iot(ops: list[_Op], ctx: _Ctx) -> BIot:
    srcs: list[int] = []
    pe_mode = None
    last = 0
    dst = None
    size = 0
    for op in ops:
        t = op.text
        if m := _TILE.fullmatch(t):
            if pe_mode is not None or last or dst is not None:
                raise ctx.err("B.IOT sources come before mask/last/destination", op.col)
            k = int(m.group(2))
            if not 1 <= k <= 16:
                raise ctx.err(f"tile number {k} out of range (1..16)", op.col)
            if len(srcs) == 2:
                raise ctx.err("a B.IOT binds at most 2 sources", op.col)
            srcs.append(HANDS.index(m.group(1).lower()) * 16 + k - 1)
        elif t.lower().startswith("mask"):
            if pe_mode is not None:
                raise ctx.err("mask given twice", op.col)
            pe_mode = _mask(op, ctx)
        elif t.lower() == "last":
            if last:
                raise ctx.err("'last' given twice", op.col)
            last = 1
        elif m := _DEST.fullmatch(t):
            if dst is not None:
                raise ctx.err("a B.IOT has at most one destination", op.col)
            dst = HANDS.index(m.group(1).lower())
            size = _size(m.group(2), op.col, ctx)
        elif t.startswith("->"):
            raise ctx.err(f"bad destination '{t}': expected ->t<SIZE> (t, u, m or n)", op.col)
        elif m := re.fullmatch(r"size\s*=\s*(\S+)", t, re.IGNORECASE):
            size = _size(m.group(1), op.col, ctx)
        else:
            raise ctx.err(f"unexpected B.IOT operand '{t}'", op.col)
    if pe_mode is None:
        raise ctx.err("B.IOT needs mask=XXXX")
    src0 = srcs[0] if srcs else None
    src1 = srcs[1] if len(srcs) > 1 else None
    return BIot(src0, src1, last, size, pe_mode, dst)


def _parse_ior(ops: list[_Op], ctx: _Ctx) -> BIor:
    if not ops or not ops[0].text.startswith("["):
        raise ctx.err("B.IOR takes [src, src, src], ->dst")
    if len(ops) > 2:
        raise ctx.err(f"B.IOR takes at most 2 operands, got {len(ops)}", ops[2].col)
    inner = ops[0].text[1:-1]
    regs = [] if not inner.strip() else _split_operands(inner, ops[0].col + 1, ctx)
    if len(regs) > 3:
        raise ctx.err("B.IOR binds at most 3 source registers", regs[3].col)
    srcs = [_gpr(r.text, r.col, ctx) for r in regs] + [0] * (3 - len(regs))
    dst = 0
    if len(ops) == 2:
        t = ops[1].text
        if t.startswith("->"):
            dst = _gpr(t[2:], ops[1].col + 2, ctx)
        elif t.startswith("["):
            d = t[1:-1].strip()
            dst = _gpr(d, ops[1].col + 1, ctx) if d else 0
        else:
            raise ctx.err(f"expected ->register, got '{t}'", ops[1].col)
    return BIor(*srcs, dst)


def _parse_ios(ops: list[_Op], ctx: _Ctx) -> BIos:
    tid = None
    size = 0
    pe_mode = None
    for op in ops:
        t = op.text
        if m := re.fullmatch(r"S(\d+)", t, re.IGNORECASE):
            tid, size = int(m.group(1)), 0
        elif m := re.fullmatch(r"->\s*S(\d+)\s*<([^>]*)>", t, re.IGNORECASE):
            tid = int(m.group(1))
            size = _size(m.group(2), op.col, ctx)
            if size == 0:
                raise ctx.err("a B.IOS destination needs a size", op.col)
        elif t.lower().startswith("mask"):
            pe_mode = _mask(op, ctx)
        else:
            raise ctx.err(f"unexpected B.IOS operand '{t}'", op.col)
        if tid is not None and tid > 255:
            raise ctx.err(f"Shared register S{tid} out of range (S0..S255)", op.col)
    if tid is None or pe_mode is None:
        raise ctx.err("B.IOS needs S<n> or ->S<n><SIZE>, and mask=XXXX")
    return BIos(tid, size, pe_mode)


def _parse_in_ctx(text: str, ctx: _Ctx) -> Command:
    body = text.strip()
    lead = len(text) - len(text.lstrip())
    m = re.match(r"(\S+)\s*", body)
    assert m is not None
    mn = m.group(1).upper()
    rest = body[m.end() :]
    ops = _split_operands(rest, ctx.col0 + lead + m.end(), ctx) if rest else []
    if mn in ("BSTART", "BSTART.CALL", "BSTART.ICALL"):
        return _parse_call(mn, ops, ctx)
    if mn in ("BSTART.STD", "BSTART.FP", "BSTART.SYS"):
        return _parse_bstart32(mn, ops, ctx)
    if mn.startswith("BSTART."):
        return _parse_bstart(mn, ops, ctx)
    if mn in ("C.BSTART", "C.BSTART.STD", "C.BSTART.FP", "C.BSTART.SYS"):
        return _parse_scalar_start(mn, ops, ctx)
    if mn == "XB":
        _want(ops, 2, mn, ctx)
        return XB(_int(ops[0], ctx, 10, "ACR-ID"), _int(ops[1], ctx, 7, "C-ID"))
    if mn == "B.CATR":
        return _parse_catr(rest, ctx.col0 + lead + m.end(), ctx)
    if mn == "B.DATR":
        return _parse_datr(ops, ctx)
    if mn == "B.FPATR":
        _want(ops, (9, 10), mn, ctx)
        names = list(FPATR_FIELD_WIDTHS)
        vals = {n: _int(op, ctx, FPATR_FIELD_WIDTHS[n], n) for n, op in zip(names, ops)}
        return BFpatr(**vals)
    if mn == "B.DIM":
        _want(ops, 3, mn, ctx)
        lb = _lb(ops[2], ctx)
        if lb == 3:
            raise ctx.err("B.DIM has only ->lb0, ->lb1 and ->lb2", ops[2].col)
        return BDim(lb, _gpr(ops[0].text, ops[0].col, ctx), _int(ops[1], ctx, 17, "uimm17"))
    if mn == "C.B.DIMI":
        _want(ops, 2, mn, ctx)
        return CBDimi(_lb(ops[1], ctx), _int(ops[0], ctx, 8, "imm8"))
    if mn == "B.IOT":
        return _parse_iot(ops, ctx)
    if mn == "B.IOR":
        return _parse_ior(ops, ctx)
    if mn == "B.IOS":
        return _parse_ios(ops, ctx)
    if mn in ("BSTOP", "C.BSTOP", "L.BSTOP"):
        _want(ops, 0, mn, ctx)
        return {"BSTOP": BStop, "C.BSTOP": CBStop, "L.BSTOP": LBStop}[mn]()
    raise ctx.err(f"unknown block command '{m.group(1)}'", ctx.col0 + lead)


def parse_command(text: str, line: int = 0) -> Command:
    """Parse one command. Raises :class:`AsmSyntaxError` (never another exception)."""
    ctx = _Ctx(line, text, 1)
    if not text.strip():
        raise ctx.err("empty command")
    try:
        return _parse_in_ctx(text, ctx)
    except AsmSyntaxError:
        raise
    except (ValueError, KeyError, IndexError, TypeError) as e:  # defensive: never a traceback
        raise ctx.err(f"cannot parse '{text.strip()}': {e}") from None


def strip_comment(line: str) -> str:
    """Drop a ``//`` comment, or a ``#`` comment that starts a word (``t#1`` is kept)."""
    cut = len(line)
    m = re.search(r"(^|\s)#", line)
    if m:
        cut = m.start(0) + len(m.group(1))
    k = line.find("//")
    if k != -1:
        cut = min(cut, k)
    return line[:cut]


def parse_program(text: str) -> list[Command]:
    """Parse many lines (``#``/``//`` comments, blank lines; ``;`` separates commands on one
    line). Errors carry the 1-based line and column."""
    cmds: list[Command] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = strip_comment(raw)
        col = 1
        for piece in line.split(";"):
            if piece.strip():
                ctx = _Ctx(n, raw, col)
                try:
                    cmds.append(_parse_in_ctx(piece, ctx))
                except AsmSyntaxError:
                    raise
                except (ValueError, KeyError, IndexError, TypeError) as e:
                    raise ctx.err(f"cannot parse '{piece.strip()}': {e}") from None
            col += len(piece) + 1
    return cmds
