"""THE table of block-command encoding forms (PTO-SPEC 3).

One row per encoding form: ``(name, command class, width, match, mask, fields, fixed)``.
``match``/``mask`` are the fixed opcode bits; each field is a list of bit pieces
``(hi, lo, at)`` meaning "instruction bits [hi:lo] hold field-value bits starting at ``at``";
``fixed`` lists the command attributes that the form itself implies (e.g. ``lb=1`` for the
B.DIM LB1 form, ``dst_hand=None`` for a source-only B.IOT). The encoder and decoder in
:mod:`pto_dialect.isa.encoding` are driven only by this table.

Where the rows come from (pto-spec main e599a3d3; read, not copied):

* ``spec/catalog/command-forms.json`` (the machine-readable form catalog; the same data is in
  each ``asl/block/**/<MNEMONIC>.asl`` header): B.DATR 0x00001023/0x000C707F; B.FPATR
  0x00002023/0x00007E7F; B.DIM 0x43/0x1043/0x2043 with mask 0x0000707F; the five B.IOT forms
  (``asl/block/operands/B.IOT.asl``) 0x00004013/0x0000707F (two sources + destination),
  0x00004013/0x0007F07F (two sources), 0x00005013/0xFC00707F (one source + destination),
  0x00005013/0xFC07F07F (one source), 0x00006013/0xFFF0707F (destination only);
  B.IOR 0x00000013/0x0600707F with RegDst[11:7], RegSrc0[19:15], RegSrc1[24:20],
  RegSrc2[31:27] (``asl/block/operands/B.IOR.asl``); B.IOS 0x00001013/0xF00871FF with
  SharedTID[27:20], SizeCode[18:15], PEMode[11:9]; BSTOP 0x00000001/0xFFFFFFFF; the 16-bit
  C.BSTOP 0x0000/0xFFFF and C.B.DIMI 0x003C/0x003F with LoopNest[15:14] and imm8[13:6]
  (``asl/block/attributes/C.B.DIMI.asl``: LoopNest 0..2 = LB0..LB2, 3 reserved).
* BSTART carriers: each named CUBE operation is its own catalog form
  ``DataType<<27 | Function<<20 | 0x31181`` with mask 0x07FFFFFF (e.g. BSTART.TGEMVMX.BIAS
  0x01531181); TLSU operations likewise with low bits 0x11181 (BSTART.TLOAD 0x00011181);
  BSTART.TEPL is 0x00019181/0x000FFFFF with DataType[31:27], Mode[26:25], Function[24:20].
  Here each family is ONE row whose Function is a field (mask 0x060FFFFF: bits 26:25 fixed
  zero), so reserved functions decode into a command and are reported by
  :func:`~pto_dialect.isa.commands.check_reserved`; for a live function the row is exactly the
  catalog's 0x07FFFFFF-mask form.
* ``reviewed_encoding_overlaps`` in the catalog: the source-only B.IOT forms are the narrow
  forms of the destination forms (SizeCode 0 selects source-only). The decoder therefore tries
  forms with more fixed mask bits first.

Decoding rule for bits that belong to neither the mask nor a field of a form (e.g. the
DstTile bits of a source-only B.IOT): they are reserved and must be zero for the word to match
that form ("Reserved instruction bits ... raise Fault_IllegalInstruction", B.IOT contract).
With that rule every word that decodes re-encodes to itself.

CScaleEn (D11, revised). The v0.58 spec has nine B.FPATR fields and reserves bits 10:9
(``asl/block/attributes/B.FPATR.asl``; AVS ``B-FPATR-TRANSPOSE-RSVD-012``): the row's mask is
the spec's 0x00007E7F, so a word with bit 9 or 10 set decodes as IllegalInstruction. The tenth
assembly operand CScaleEn (the user design document's 10th field, PTO-SPEC 3.3) exists in the IR and the assembly only: the row fixes it
at 0, and :func:`~pto_dialect.isa.encoding.encode` refuses CScaleEn = 1 with a clear error.

Every 16-bit form has bit 0 clear and every 32-bit form here has bit 0 set, which is how a
little-endian byte stream is split into commands (:func:`~pto_dialect.isa.encoding.split_bytes`).

Compressed and control rows (same catalog): C.BSTART DIRECT 0x0002 / COND 0x0004 with mask
0x000F and simm12[15:4]; C.BSTART.STD 0x0000 and C.BSTART.FP 0x0080, mask 0xC7FF, BrType[13:11]
(STD BrType 0 is the C.BSTOP word, which the narrower C.BSTOP row decodes first); C.BSTART.SYS
0x0840/0xFFFF; B.CATR 0x00000023/0xFBF07FFF with DR[26], trap[19], far[18], atom[17], aq[16],
rl[15]; the 32-bit scalar starts BSTART.STD 0x001, BSTART.FP 0x101, BSTART.SYS 0x081 in bits
11:0 and one catalog row per transfer (bits 14:12: 1 FALL, 2 DIRECT, 3 COND with simm17[31:15]
and mask 0x00007FFF; 5 IND, 7 RET complete words): the deleted bare CALL/ICALL codes 4 and 6
match no row (IllegalInstruction), a nonzero simm17 of a FALL form decodes and is reserved
(:func:`~pto_dialect.isa.commands.check_reserved`, the catalog's ``one-of [0]`` constraint);
the lifecycle BSTART DIRECT 0x11 / COND 0x21 (mask 0x7F, simm25[31:7]); the fused calls
BSTART.CALL 0x50160002/0xF83F000F (uimm5[26:22], simm12[15:4]; its bit 0 is clear, so it is
one more 32-bit word a byte stream cannot split by bit 0) and BSTART.ICALL 0x50166001/
0xF83FFFFF; L.BSTOP, the one 64-bit form, low word 0x0000000F and high word 0x00000001. The ASL
gives an instruction's length to its decoder (``ExecuteCommandInstruction(instruction,
length_bits)``) and we found no rule that derives 64 bits from the first parcel, so a byte
stream holding L.BSTOP cannot be split here: program words and hex text carry the width
(``0x%016X`` for 64 bits).
"""

from __future__ import annotations

from dataclasses import dataclass

from pto_dialect.isa.commands import (
    BSTART32_NAMES,
    BSTART32_TRANSFERS,
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
    CBStop,
    Command,
    LBStop,
    Transfer,
)


@dataclass(frozen=True)
class Piece:
    """Instruction bits [hi:lo] hold value bits [at + hi - lo : at]."""

    hi: int
    lo: int
    at: int = 0

    @property
    def width(self) -> int:
        return self.hi - self.lo + 1

    @property
    def bits(self) -> int:
        return ((1 << self.width) - 1) << self.lo


@dataclass(frozen=True)
class Field:
    name: str
    """Attribute name on the command dataclass."""
    pieces: tuple[Piece, ...]

    @property
    def width(self) -> int:
        return sum(p.width for p in self.pieces)

    @property
    def bits(self) -> int:
        out = 0
        for p in self.pieces:
            out |= p.bits
        return out

    def extract(self, word: int) -> int:
        value = 0
        for p in self.pieces:
            value |= ((word >> p.lo) & ((1 << p.width) - 1)) << p.at
        return value

    def insert(self, value: int) -> int:
        word = 0
        for p in self.pieces:
            word |= ((value >> p.at) & ((1 << p.width) - 1)) << p.lo
        return word


@dataclass(frozen=True)
class Form:
    name: str
    cls: type[Command]
    width: int
    match: int
    mask: int
    fields: tuple[Field, ...] = ()
    fixed: tuple[tuple[str, object], ...] = ()
    source: str = ""
    """Spec path the row was read from."""

    @property
    def field_bits(self) -> int:
        out = 0
        for f in self.fields:
            out |= f.bits
        return out

    @property
    def reserved_bits(self) -> int:
        """Bits that are neither fixed by the mask nor part of a field."""
        return ((1 << self.width) - 1) & ~(self.mask | self.field_bits)

    def implies(self, cmd: Command) -> bool:
        """Is ``cmd`` of this form (class, implied attributes, field attributes present)?"""
        if type(cmd) is not self.cls:
            return False
        if any(getattr(cmd, a) != v for a, v in self.fixed):
            return False
        return all(getattr(cmd, f.name) is not None for f in self.fields)


def _f(name: str, hi: int, lo: int | None = None) -> Field:
    return Field(name, (Piece(hi, hi if lo is None else lo),))


_BSTART_FIELDS = (_f("dtype", 31, 27), _f("function", 24, 20))
_SIMM17 = _f("simm17", 31, 15)


def _bstart32(cls: type[Command], low: int, code: int, path: str) -> Form:
    """One catalog row of a 32-bit scalar start: transfer ``code`` in bits 14:12; FALL,
    DIRECT, COND carry simm17 (FALL constrains it to 0: :func:`check_reserved`), IND and RET
    are complete words."""
    name = f"{cls.mnemonic}.{BSTART32_NAMES[code]}"
    if BSTART32_TRANSFERS[code] in (Transfer.IND, Transfer.RET):
        return Form(name, cls, 32, code << 12 | low, 0xFFFFFFFF, (),
                    (("brtype", code), ("simm17", 0)), path)  # fmt: skip
    return Form(name, cls, 32, code << 12 | low, 0x00007FFF, (_SIMM17,), (("brtype", code),), path)
_UIMM17 = Field("imm", (Piece(31, 20, 0), Piece(11, 7, 12)))
_IOT = {
    "src1": _f("src1", 31, 26),
    "src0": _f("src0", 25, 20),
    "last": _f("last", 19),
    "size_code": _f("size_code", 18, 15),
    "pe_mode": _f("pe_mode", 11, 9),
    "dst_hand": _f("dst_hand", 8, 7),
}


def _iot(name, match, mask, names, fixed):
    return Form(
        name,
        BIot,
        32,
        match,
        mask,
        tuple(_IOT[n] for n in names),
        fixed,
        "asl/block/operands/B.IOT.asl",
    )


FORMS: tuple[Form, ...] = (
    Form("BSTART.CUBE", BStart, 32, 0x00031181, 0x060FFFFF, _BSTART_FIELDS,
         (("family", BlockFamily.CUBE), ("mode", 0)), "asl/block/execution/BSTART.TGEMVMX.BIAS.asl"),
    Form("BSTART.TLSU", BStart, 32, 0x00011181, 0x060FFFFF, _BSTART_FIELDS,
         (("family", BlockFamily.TLSU), ("mode", 0)), "asl/block/execution/BSTART.TLOAD.asl"),
    Form("BSTART.TEPL", BStart, 32, 0x00019181, 0x000FFFFF,
         (_f("dtype", 31, 27), _f("mode", 26, 25), _f("function", 24, 20)),
         (("family", BlockFamily.TEPL),), "asl/block/execution/BSTART.TEPL.asl"),
    Form("B.DATR", BDatr, 32, 0x00001023, 0x000C707F,
         (_f("cmode", 31, 29), _f("pad", 28, 27), _f("sat", 26), _f("canonicalize", 25),
          _f("dtype", 24, 20), _f("rmode", 17, 15), _f("layout", 11, 7)),
         (), "asl/block/attributes/B.DATR.asl"),
    Form("B.FPATR", BFpatr, 32, 0x00002023, 0x00007E7F,
         (_f("pre_quant_mode", 31, 26), _f("relu_mode", 25, 23), _f("group_n_code", 22, 19),
          _f("row_max_en", 18), _f("group_max_en", 17), _f("row_max_init", 16),
          _f("max_abs_en", 15), _f("trans_b", 8), _f("trans_a", 7)),
         (("cscale_en", 0),), "asl/block/attributes/B.FPATR.asl (bits 10:9 reserved, D11)"),
    *(
        Form(f"B.DIM.LB{k}", BDim, 32, 0x00000043 | k << 12, 0x0000707F,
             (_f("reg", 19, 15), _UIMM17), (("lb", k),), "asl/block/attributes/B.DIM.asl")
        for k in range(3)
    ),
    Form("C.B.DIMI", CBDimi, 16, 0x003C, 0x003F, (_f("lb", 15, 14), _f("imm", 13, 6)),
         (), "asl/block/attributes/C.B.DIMI.asl"),
    _iot("B.IOT.SS", 0x00004013, 0x0007F07F, ("src1", "src0", "last", "pe_mode"),
         (("dst_hand", None), ("size_code", 0))),
    _iot("B.IOT.SSD", 0x00004013, 0x0000707F,
         ("src1", "src0", "last", "size_code", "pe_mode", "dst_hand"), ()),
    _iot("B.IOT.S", 0x00005013, 0xFC07F07F, ("src0", "last", "pe_mode"),
         (("src1", None), ("dst_hand", None), ("size_code", 0))),
    _iot("B.IOT.SD", 0x00005013, 0xFC00707F,
         ("src0", "last", "size_code", "pe_mode", "dst_hand"), (("src1", None),)),
    _iot("B.IOT.D", 0x00006013, 0xFFF0707F, ("last", "size_code", "pe_mode", "dst_hand"),
         (("src0", None), ("src1", None))),
    Form("B.IOR", BIor, 32, 0x00000013, 0x0600707F,
         (_f("dst", 11, 7), _f("src0", 19, 15), _f("src1", 24, 20), _f("src2", 31, 27)),
         (), "asl/block/operands/B.IOR.asl"),
    Form("B.IOS", BIos, 32, 0x00001013, 0xF00871FF,
         (_f("tid", 27, 20), _f("size_code", 18, 15), _f("pe_mode", 11, 9)),
         (), "asl/block/operands/B.IOS.asl"),
    Form("BSTOP", BStop, 32, 0x00000001, 0xFFFFFFFF, (), (), "asl/block/lifecycle/BSTOP.asl"),
    Form("C.BSTOP", CBStop, 16, 0x0000, 0xFFFF, (), (), "asl/block/lifecycle/C.BSTOP.asl"),
    Form("L.BSTOP", LBStop, 64, 0x00000001_0000000F, (1 << 64) - 1, (), (),
         "asl/block/lifecycle/L.BSTOP.asl (words 0x0000000F, 0x00000001)"),
    Form("B.CATR", BCatr, 32, 0x00000023, 0xFBF07FFF,
         (_f("dr", 26), _f("trap", 19), _f("far", 18), _f("atom", 17), _f("aq", 16),
          _f("rl", 15)), (), "asl/block/attributes/B.CATR.asl"),
    Form("C.BSTART.DIRECT", CBStart, 16, 0x0002, 0x000F, (_f("simm12", 15, 4),),
         (("cond", 0),), "asl/block/encoding/C.BSTART.asl"),
    Form("C.BSTART.COND", CBStart, 16, 0x0004, 0x000F, (_f("simm12", 15, 4),),
         (("cond", 1),), "asl/block/encoding/C.BSTART.asl"),
    Form("C.BSTART.STD", CBStartStd, 16, 0x0000, 0xC7FF, (_f("brtype", 13, 11),), (),
         "asl/block/encoding/C.BSTART.STD.asl (BrType 0 is C.BSTOP)"),
    Form("C.BSTART.FP", CBStartFp, 16, 0x0080, 0xC7FF, (_f("brtype", 13, 11),), (),
         "asl/block/encoding/C.BSTART.FP.asl"),
    Form("C.BSTART.SYS", CBStartSys, 16, 0x0840, 0xFFFF, (), (),
         "asl/block/encoding/C.BSTART.SYS.asl"),
    *(
        _bstart32(cls, low, code, path)
        for cls, low, path in ((BStartStd, 0x001, "asl/block/execution/BSTART.STD.asl"),
                               (BStartFp, 0x101, "asl/block/execution/BSTART.FP.asl"))
        for code in BSTART32_TRANSFERS
    ),
    _bstart32(BStartSys, 0x081, 1, "asl/block/execution/BSTART.SYS.asl"),
    Form("BSTART.DIRECT", BStartLong, 32, 0x00000011, 0x0000007F, (_f("simm25", 31, 7),),
         (("cond", 0),), "asl/block/lifecycle/BSTART.asl"),
    Form("BSTART.COND", BStartLong, 32, 0x00000021, 0x0000007F, (_f("simm25", 31, 7),),
         (("cond", 1),), "asl/block/lifecycle/BSTART.asl"),
    Form("BSTART.CALL", BStartCall, 32, 0x50160002, 0xF83F000F,
         (_f("uimm5", 26, 22), _f("simm12", 15, 4)), (), "asl/block/execution/BSTART.CALL.asl"),
    Form("XB", XB, 32, 0x00006F81, 0x00007FFF, (_f("cross_bid", 31, 25), _f("acr_id", 24, 15)),
         (), "asl/block/encoding/XB.asl (reserved in PTO)"),
    Form("BSTART.ICALL", BStartICall, 32, 0x50166001, 0xF83FFFFF, (_f("uimm5", 26, 22),), (),
         "asl/block/execution/BSTART.ICALL.asl"),
)  # fmt: skip


def _popcount(x: int) -> int:
    return bin(x).count("1")


DECODE_ORDER: dict[int, tuple[Form, ...]] = {
    w: tuple(sorted((f for f in FORMS if f.width == w), key=lambda f: -_popcount(f.mask)))
    for w in (16, 32, 64)
}
"""Forms per command width, narrow (more fixed bits) first."""

FORMS_BY_NAME: dict[str, Form] = {f.name: f for f in FORMS}


def _self_check() -> None:
    for form in FORMS:
        full = (1 << form.width) - 1
        assert form.match & ~form.mask == 0, form.name
        assert form.mask & ~full == 0, form.name
        seen = form.mask
        for fld in form.fields:
            assert fld.bits & seen == 0, (form.name, fld.name)
            seen |= fld.bits
    assert len(FORMS_BY_NAME) == len(FORMS)


_self_check()
