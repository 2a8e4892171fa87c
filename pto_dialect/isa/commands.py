"""PTO block commands: the command model and the per-concern selector tables.

Pure Python (no xDSL): shared by the dialect, the block IR, the block encoder and the
interpreter. Every command is a frozen dataclass holding *raw* field values, so a command can
carry reserved or malformed values (decoded from a word or built by a tool); the encoder
refuses only values that do not fit their bit field, and :func:`check_reserved` reports the
rest as ``Fault_IllegalInstruction`` (PTO-SPEC 3, D12).

Sources (read, not copied; pto-spec main e599a3d3):

* ``spec/catalog/tile-operations.json`` - the operation catalog. The CUBE function table, the
  TLSU function table and the 87 assigned TEPL ``Mode:Function`` selectors below (name, engine
  VEC/SFU, static source/destination counts, the B.DATR fields each operation accepts) are
  transcribed from it. Its ``reserved`` section lists CUBE functions 3, 7, 8, 9-15, 19, 23-31
  (8 = the deleted ACCCVT) and the TEPL selector holes (0x005, 0x00E, 0x018-0x019,
  0x01D-0x01F, 0x025, 0x02E-0x039, 0x03C-0x03F, 0x04E-0x04F, 0x05E-0x05F, 0x061, 0x069,
  0x075-0x07F); TFMOD/TFMODS are among its ``deleted_names`` and so have no selector.
* ``asl/block/execution/BSTART.TEPL.asl``: canonical assembly picks ``BSTART.VEC`` or
  ``BSTART.SFU`` from the operation's engine; ``BSTART.TEPL m, f, DT`` is input only;
  DataType 15, 21-23 and 29-31 are reserved in BSTART (DTYPE_NONE is not a BSTART type).
* ``asl/block/operands/B.IOR.asl``: GPR selectors 0..23 are zero, sp, a0-a7, ra, s0-s8,
  x0-x3; 24..31 are reserved.
* ``asl/block/model/state/control-state.asl`` (``TileDataLayoutOfCode``): B.DATR Layout codes.
* ``docs/block/attributes/B.DATR.md``: CMode EQ..GE (6-7 reserved), RMode names, PadValue
  Zero/Max/Min/Null.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum

from pto_dialect.datatypes import DTYPE_NONE, RESERVED_CODES
from pto_dialect.faults import FaultKind, PTOFault
from pto_dialect.postprocess import Fpatr


class NamedEnum(str, Enum):
    """A string enum that prints as its value."""

    def __str__(self) -> str:
        return self.value


class BlockFamily(NamedEnum):
    """Which BSTART carrier opened the block (PTO-SPEC 3.1)."""

    CUBE = "CUBE"
    TEPL = "TEPL"
    TLSU = "TLSU"


class Engine(NamedEnum):
    VEC = "VEC"
    SFU = "SFU"


# ---------------------------------------------------------------------------------------------
# Selector tables (one row per operation; families are tables, not code)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CubeFunction:
    code: int
    name: str
    """Catalog operation name, e.g. ``TGEMV_MX_BIAS``."""
    mnemonic: str
    """Canonical BSTART mnemonic suffix, e.g. ``TGEMVMX.BIAS``."""

    mode = 0
    """CUBE BSTARTs have no Mode field."""

    @property
    def function(self) -> int:
        return self.code

    @property
    def is_bias(self) -> bool:
        return self.code in (1, 5, 17, 21)

    @property
    def is_acc(self) -> bool:
        return self.code in (2, 6, 18, 22)

    @property
    def is_mx(self) -> bool:
        return self.code in (4, 5, 6, 20, 21, 22)

    @property
    def is_gemv(self) -> bool:
        return 16 <= self.code <= 22


CUBE_FUNCTIONS: dict[int, CubeFunction] = {
    f.code: f
    for f in [
        CubeFunction(0, "TMATMUL", "TMATMUL"),
        CubeFunction(1, "TMATMUL_BIAS", "TMATMUL.BIAS"),
        CubeFunction(2, "TMATMUL_ACC", "TMATMUL.ACC"),
        CubeFunction(4, "TMATMUL_MX", "TMATMULMX"),
        CubeFunction(5, "TMATMUL_MX_BIAS", "TMATMULMX.BIAS"),
        CubeFunction(6, "TMATMUL_MX_ACC", "TMATMULMX.ACC"),
        CubeFunction(16, "TGEMV", "TGEMV"),
        CubeFunction(17, "TGEMV_BIAS", "TGEMV.BIAS"),
        CubeFunction(18, "TGEMV_ACC", "TGEMV.ACC"),
        CubeFunction(20, "TGEMV_MX", "TGEMVMX"),
        CubeFunction(21, "TGEMV_MX_BIAS", "TGEMVMX.BIAS"),
        CubeFunction(22, "TGEMV_MX_ACC", "TGEMVMX.ACC"),
    ]
}
"""The 12 live CUBE functions (PTO-SPEC 3.1). Every other 5-bit code is reserved; 8 was ACCCVT."""

CUBE_DELETED = {8: "ACCCVT"}


@dataclass(frozen=True)
class TlsuFunction:
    code: int
    name: str
    mnemonic: str
    """Canonical BSTART mnemonic suffix, e.g. ``TLOAD`` or ``MGATHER.MASK``."""

    mode = 0
    """TLSU BSTARTs have no Mode field."""

    @property
    def function(self) -> int:
        return self.code


TLSU_FUNCTIONS: dict[int, TlsuFunction] = {
    f.code: f
    for f in [
        TlsuFunction(0, "TLOAD", "TLOAD"),
        TlsuFunction(1, "TSTORE", "TSTORE"),
        TlsuFunction(2, "TMOV", "TMOV"),
        TlsuFunction(3, "TPREFETCH", "TPREFETCH"),
        TlsuFunction(4, "MGATHER", "MGATHER"),
        TlsuFunction(5, "MSCATTER", "MSCATTER"),
        TlsuFunction(6, "MGATHER_MASK", "MGATHER.MASK"),
        TlsuFunction(7, "MSCATTER_MASK", "MSCATTER.MASK"),
        TlsuFunction(8, "MGATHER_CAS", "MGATHER.CAS"),
        TlsuFunction(9, "TMOV_L2S_INSERT", "TMOV.L2S.INSERT"),
        TlsuFunction(10, "TMOV_L2S_PUBLISH", "TMOV.L2S.PUBLISH"),
        TlsuFunction(11, "TMOV_S2L_BROADCAST", "TMOV.S2L.BROADCAST"),
        TlsuFunction(12, "TMOV_S2L_EXTRACT", "TMOV.S2L.EXTRACT"),
        TlsuFunction(13, "GMOV", "GMOV"),
        TlsuFunction(14, "TSTORE_SPART", "TSTORE.SPART"),
    ]
}
"""Tile load/store unit BSTART functions (catalog family TLSU); other codes are reserved.
Function 14 is the TSTORE.SPART variant of BSTART.TSTORE (catalog ``encoding_variants``,
``asl/block/execution/BSTART.TSTORE.asl``): a Shared partial-PE store. Functions 9-12 are the
Shared variants of BSTART.TMOV (``asl/block/execution/BSTART.TMOV.asl`` ``encoding_variants``;
``BundleOperationDecodeCode`` decodes them to TMOV)."""
TMOV_FUNCTIONS = frozenset({2, 9, 10, 11, 12})
"""The BSTART.TMOV carriers: the only BSTARTs whose DataType may be DTYPE_NONE (31, inherit the
bound source descriptor's type; ``BundleOperationDescriptorLegal``)."""


@dataclass(frozen=True)
class TeplOp:
    """One assigned TEPL ``Mode:Function`` selector (``spec/catalog/tile-operations.json``)."""

    name: str
    mode: int
    function: int
    engine: Engine
    sources: int
    """Static Local tile sources of the operation schema."""
    destinations: int
    datr_fields: str
    """B.DATR fields the operation accepts nonzero: P pad, C CMode, S Sat, Z Canonicalize,
    D DataType, R RMode, L Layout."""

    @property
    def selector(self) -> int:
        return self.mode << 5 | self.function


_V, _S = Engine.VEC, Engine.SFU
_TEPL_ROWS = [
    ("TADD", 0, 0, _V, 2, 1, "P"),
    ("TSUB", 0, 1, _V, 2, 1, "P"),
    ("TMUL", 0, 2, _V, 2, 1, "P"),
    ("TDIV", 0, 3, _S, 2, 1, "P"),
    ("TREM", 0, 4, _S, 2, 1, "P"),
    ("TAND", 0, 6, _V, 2, 1, "P"),
    ("TOR", 0, 7, _V, 2, 1, "P"),
    ("TXOR", 0, 8, _V, 2, 1, "P"),
    ("TSHL", 0, 9, _V, 2, 1, "P"),
    ("TSHR", 0, 10, _V, 2, 1, "P"),
    ("TMAX", 0, 11, _V, 2, 1, "P"),
    ("TMIN", 0, 12, _V, 2, 1, "P"),
    ("TCMP", 0, 13, _V, 2, 1, "CP"),
    ("TABS", 0, 15, _V, 1, 1, "P"),
    ("TNOT", 0, 16, _V, 1, 1, "P"),
    ("TNEG", 0, 17, _V, 1, 1, "P"),
    ("TEXP", 0, 18, _S, 1, 1, "P"),
    ("TLOG", 0, 19, _S, 1, 1, "P"),
    ("TRECIP", 0, 20, _S, 1, 1, "P"),
    ("TSQRT", 0, 21, _S, 1, 1, "P"),
    ("TRSQRT", 0, 22, _S, 1, 1, "P"),
    ("TRELU", 0, 23, _V, 1, 1, "P"),
    ("TSEL", 0, 26, _V, 3, 1, "P"),
    ("TCVT", 0, 27, _V, 1, 1, "DLPRSZ"),
    ("TFMA", 0, 28, _V, 3, 1, "P"),
    ("TADDS", 1, 0, _V, 1, 1, "P"),
    ("TSUBS", 1, 1, _V, 1, 1, "P"),
    ("TMULS", 1, 2, _V, 1, 1, "P"),
    ("TDIVS", 1, 3, _S, 1, 1, "P"),
    ("TREMS", 1, 4, _S, 1, 1, "P"),
    ("TANDS", 1, 6, _V, 1, 1, "P"),
    ("TORS", 1, 7, _V, 1, 1, "P"),
    ("TXORS", 1, 8, _V, 1, 1, "P"),
    ("TSHLS", 1, 9, _V, 1, 1, "P"),
    ("TSHRS", 1, 10, _V, 1, 1, "P"),
    ("TMAXS", 1, 11, _V, 1, 1, "P"),
    ("TMINS", 1, 12, _V, 1, 1, "P"),
    ("TCMPS", 1, 13, _V, 1, 1, "CP"),
    ("TSELS", 1, 26, _V, 2, 1, "P"),
    ("TEXPANDS", 1, 27, _V, 0, 1, "P"),
    ("TROWSUM", 2, 0, _S, 1, 1, "P"),
    ("TROWMAX", 2, 1, _S, 1, 1, "P"),
    ("TROWMIN", 2, 2, _S, 1, 1, "P"),
    ("TROWPROD", 2, 3, _S, 1, 1, "P"),
    ("TROWEXPAND", 2, 4, _S, 1, 1, "P"),
    ("TROWEXPANDADD", 2, 5, _S, 2, 1, "P"),
    ("TROWEXPANDSUB", 2, 6, _S, 2, 1, "P"),
    ("TROWEXPANDMUL", 2, 7, _S, 2, 1, "P"),
    ("TROWEXPANDDIV", 2, 8, _S, 2, 1, "P"),
    ("TROWEXPANDMAX", 2, 9, _S, 2, 1, "P"),
    ("TROWEXPANDMIN", 2, 10, _S, 2, 1, "P"),
    ("TROWEXPANDEXPDIF", 2, 11, _S, 2, 1, "DP"),
    ("TROWARGMAX", 2, 12, _S, 1, 1, "P"),
    ("TROWARGMIN", 2, 13, _S, 1, 1, "P"),
    ("TCOLSUM", 2, 16, _S, 1, 1, "P"),
    ("TCOLMAX", 2, 17, _S, 1, 1, "P"),
    ("TCOLMIN", 2, 18, _S, 1, 1, "P"),
    ("TCOLPROD", 2, 19, _S, 1, 1, "P"),
    ("TCOLEXPAND", 2, 20, _S, 1, 1, "P"),
    ("TCOLEXPANDADD", 2, 21, _S, 2, 1, "P"),
    ("TCOLEXPANDSUB", 2, 22, _S, 2, 1, "P"),
    ("TCOLEXPANDMUL", 2, 23, _S, 2, 1, "P"),
    ("TCOLEXPANDDIV", 2, 24, _S, 2, 1, "P"),
    ("TCOLEXPANDMAX", 2, 25, _S, 2, 1, "P"),
    ("TCOLEXPANDMIN", 2, 26, _S, 2, 1, "P"),
    ("TCOLEXPANDEXPDIF", 2, 27, _S, 2, 1, "DP"),
    ("TCOLARGMAX", 2, 28, _S, 1, 1, "P"),
    ("TCOLARGMIN", 2, 29, _S, 1, 1, "P"),
    ("TCONCAT", 3, 0, _S, 2, 1, "L"),
    ("TEXTRACT", 3, 2, _S, 1, 1, "L"),
    ("TINSERT", 3, 3, _S, 2, 1, "L"),
    ("TIMG2COL", 3, 4, _S, 1, 1, ""),
    ("TFILLPAD", 3, 5, _S, 1, 1, "L"),
    ("TCI", 3, 6, _S, 0, 1, ""),
    ("TTRI", 3, 7, _S, 0, 1, ""),
    ("THISTOGRAM", 3, 8, _S, 2, 1, "DP"),
    ("TQUANT", 3, 10, _S, 1, 1, "DRS"),
    ("TDEQUANT", 3, 11, _S, 1, 1, "DR"),
    ("TSORT", 3, 12, _S, 1, 2, ""),
    ("TMRGSORT", 3, 13, _S, 2, 1, ""),
    ("TTRANS", 3, 14, _S, 1, 1, "L"),
    ("TGATHER", 3, 15, _S, 2, 1, "L"),
    ("TSCATTER", 3, 16, _S, 2, 1, "L"),
    ("TPARTADD", 3, 17, _S, 2, 1, ""),
    ("TPARTMUL", 3, 18, _S, 2, 1, ""),
    ("TPARTMAX", 3, 19, _S, 2, 1, ""),
    ("TPARTMIN", 3, 20, _S, 2, 1, ""),
]
TEPL_OPS: dict[tuple[int, int], TeplOp] = {(r[1], r[2]): TeplOp(*r) for r in _TEPL_ROWS}
"""Assigned TEPL selectors keyed by (mode, function). TREM is (0, 4), selector 0x004."""
TEPL_BY_NAME: dict[str, TeplOp] = {op.name: op for op in TEPL_OPS.values()}
assert len(TEPL_OPS) == 87 == len(TEPL_BY_NAME)
del _TEPL_ROWS

CatalogRow = CubeFunction | TeplOp | TlsuFunction
CATALOG_BY_NAME: dict[BlockFamily, dict[str, CatalogRow]] = {
    BlockFamily.CUBE: {f.name: f for f in CUBE_FUNCTIONS.values()},
    BlockFamily.TEPL: dict(TEPL_BY_NAME),
    BlockFamily.TLSU: {f.name: f for f in TLSU_FUNCTIONS.values()},
}
"""Catalog operation name -> its selector row, per BSTART family."""


class CatalogField:
    """A class attribute of an op class read from the op's catalog row: the op names its
    ``BLOCK_FAMILY`` and catalog ``MNEMONIC`` (``TEXP``, ``TGEMV_MX_BIAS``, ``MGATHER``) and
    its selector (``MODE``, ``FUNCTION``) comes from the one table above, never repeated.
    Reading it on a class without a catalog row raises ``AttributeError``."""

    def __init__(self, field: str):
        self.field = field

    def __set_name__(self, owner: type, name: str) -> None:
        self.attr = name

    def __get__(self, obj: object, owner: type):
        family = getattr(owner, "BLOCK_FAMILY", None)
        row = CATALOG_BY_NAME[family].get(getattr(owner, "MNEMONIC", "")) if family else None
        if row is None:
            raise AttributeError(f"{owner.__name__} has no catalog row: no {self.attr}")
        return getattr(row, self.field)


# ---------------------------------------------------------------------------------------------
# Field-value tables
# ---------------------------------------------------------------------------------------------

LAYOUTS: dict[int, str] = {
    0: "NORM",
    1: "ND2DN",
    3: "ND2ZN",
    4: "ND2NZ",
    6: "DN2ND",
    8: "DN2ZN",
    9: "DN2NZ",
    17: "ZN2ND",
    18: "ZN2DN",
    20: "ZN2NZ",
    21: "ND2M32",
    22: "ND2M16",
    23: "ND2N8",
    24: "M322ND",
    25: "M162ND",
    26: "N82ND",
    27: "NZ2ND",
    28: "NZ2DN",
    30: "NZ2ZN",
}
"""B.DATR Layout codes; 2, 5, 7, 10-16, 19, 29, 31 are reserved (PTO-SPEC 3.2)."""

CMODES = ("EQ", "NE", "LT", "GT", "LE", "GE")
"""B.DATR CMode 0..5; 6 and 7 are reserved."""

RMODES = ("RNONE", "RNE", "RTZ", "RTM", "RTP", "RNA", "RTO", "RHB")
"""B.DATR RMode 0..7; 0 is the operation default (RNE for CUBE, ADR-0079)."""

PAD_VALUES = ("Zero", "Max", "Min", "Null")
"""B.DATR PadValueOrByteId 0..3 as a PadValue (PTO-SPEC 2). Omitted B.DATR means Null."""
PAD_NULL = 3

GPR_NAMES = (
    "zero", "sp", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "ra",
    "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "x0", "x1", "x2", "x3",
)  # fmt: skip
"""Absolute GPR selectors 0..23 (B.IOR, B.DIM RegSrc); 24..31 are reserved."""
GPR_COUNT = len(GPR_NAMES)

HANDS = ("t", "u", "m", "n")
"""Local tile hands T U M N: register index = hand*16 + (k-1) for ``t#k`` (PTO-SPEC 2)."""

PE_MODE_MASKS = ("0000", "1000", "0100", "0010", "0001", "1100", "1110", "1111")
"""PEMode -> PE mask text, PE0 leftmost (PTO-SPEC 2 PE_MASK, D13)."""
MASK_PE_MODES = {m: i for i, m in enumerate(PE_MODE_MASKS)}

LOCAL_SIZE_CODES = range(1, 11)
"""B.IOT destination SizeCode 1..10 = 128 B * 2^(code-1) per PE (D14)."""
SHARED_SIZE_CODES = range(1, 13)
"""B.IOS destination SizeCode 1..12 (128 B .. 256 KiB per PE)."""


def size_code_bytes(code: int) -> int:
    """TSize in bytes per PE of a SizeCode >= 1 (D14)."""
    if code < 1:
        raise ValueError(f"SizeCode {code} has no size")
    return 128 << (code - 1)


def pe_mask_bits(pe_mode: int) -> tuple[bool, bool, bool, bool]:
    """(PE0, PE1, PE2, PE3) participation for a 3-bit PEMode."""
    return tuple(c == "1" for c in PE_MODE_MASKS[pe_mode])  # type: ignore[return-value]


def tile_index(hand: int, k: int) -> int:
    """Register index of source ``<hand>#k`` (k = 1..16)."""
    if not (0 <= hand < 4 and 1 <= k <= 16):
        raise ValueError(f"no tile {hand}#{k}: hands are t,u,m,n and k is 1..16")
    return hand * 16 + (k - 1)


def tile_name(index: int) -> str:
    """``t#1`` .. ``n#16`` for a 6-bit register index."""
    return f"{HANDS[index >> 4]}#{(index & 15) + 1}"


# ---------------------------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------------------------


class Command:
    """Base class of every block command (a frozen dataclass)."""

    mnemonic: str = ""

    def replace(self, **changes):
        from dataclasses import replace

        return replace(self, **changes)


@dataclass(frozen=True)
class BStart(Command):
    """BSTART: opens a block and selects its operation (PTO-SPEC 3.1).

    ``function`` is the 5-bit Function field; ``mode`` the 2-bit TEPL Mode (0 for CUBE/TLSU,
    whose bits 26:25 are fixed zero); ``dtype`` the 5-bit DataType code (AType for CUBE).
    """

    family: BlockFamily
    function: int
    dtype: int
    mode: int = 0

    mnemonic = "BSTART"

    @property
    def selector(self) -> int:
        return self.mode << 5 | self.function

    @property
    def cube(self) -> CubeFunction | None:
        return CUBE_FUNCTIONS.get(self.function) if self.family is BlockFamily.CUBE else None

    @property
    def tepl(self) -> TeplOp | None:
        if self.family is not BlockFamily.TEPL:
            return None
        return TEPL_OPS.get((self.mode, self.function))

    @property
    def tlsu(self) -> TlsuFunction | None:
        return TLSU_FUNCTIONS.get(self.function) if self.family is BlockFamily.TLSU else None

    @property
    def op_name(self) -> str | None:
        """Catalog name of the selected operation (``TGEMV_MX_BIAS``, ``TREM``...) or None."""
        op = self.cube or self.tepl or self.tlsu
        return op.name if op else None

    @classmethod
    def op(cls, name: str, dtype: int) -> BStart:
        """The BSTART of the catalog operation ``name`` (e.g. ``TREM``, ``TGEMV_MX_BIAS``)."""
        key = name.upper()
        for f in CUBE_FUNCTIONS.values():
            if f.name == key:
                return cls(BlockFamily.CUBE, f.code, int(dtype))
        if key in TEPL_BY_NAME:
            op = TEPL_BY_NAME[key]
            return cls(BlockFamily.TEPL, op.function, int(dtype), op.mode)
        for f in TLSU_FUNCTIONS.values():
            if f.name == key:
                return cls(BlockFamily.TLSU, f.code, int(dtype))
        raise ValueError(f"unknown PTO block operation '{name}'")


@dataclass(frozen=True)
class BDatr(Command):
    """B.DATR data attributes (PTO-SPEC 3.2). Defaults are the all-zero fields with
    DataType = DTYPE_NONE (inherit the BSTART type)."""

    layout: int = 0
    dtype: int = DTYPE_NONE
    pad: int = 0
    cmode: int = 0
    rmode: int = 0
    sat: int = 0
    canonicalize: int = 0

    mnemonic = "B.DATR"


@dataclass(frozen=True)
class BFpatr(Command):
    """B.FPATR with the ten assembly fields of D11 (same names as :class:`Fpatr`)."""

    pre_quant_mode: int = 0
    relu_mode: int = 0
    group_n_code: int = 0
    row_max_en: int = 0
    group_max_en: int = 0
    row_max_init: int = 0
    max_abs_en: int = 0
    trans_a: int = 0
    trans_b: int = 0
    cscale_en: int = 0

    mnemonic = "B.FPATR"

    @property
    def fpatr(self) -> Fpatr:
        return Fpatr(*(getattr(self, f.name) for f in fields(self)))

    @classmethod
    def from_fpatr(cls, f: Fpatr) -> BFpatr:
        return cls(*f.as_tuple())


@dataclass(frozen=True)
class BDim(Command):
    """B.DIM: LB[lb] = (GPR[reg] + imm)[15:0] (PTO-SPEC 3.4). ``imm`` is the 17-bit uimm17."""

    lb: int
    reg: int
    imm: int

    mnemonic = "B.DIM"


@dataclass(frozen=True)
class CBDimi(Command):
    """C.B.DIMI (16-bit): LB[lb] = imm8, zero-extended. ``lb`` is the 2-bit LoopNest field
    (3 is reserved)."""

    lb: int
    imm: int

    mnemonic = "C.B.DIMI"


@dataclass(frozen=True)
class BIot(Command):
    """B.IOT Local tile binding (PTO-SPEC 3.4).

    ``src0``/``src1`` are raw 6-bit register indices or None; ``dst_hand`` is the destination
    hand (0 T, 1 U, 2 M, 3 N) or None; ``size_code`` is 0 for source-only forms and 1..10 for
    destination forms; ``pe_mode`` is the 3-bit PEMode; ``last`` is the L bit.
    """

    src0: int | None = None
    src1: int | None = None
    last: int = 0
    size_code: int = 0
    pe_mode: int = 7
    dst_hand: int | None = None

    mnemonic = "B.IOT"

    @property
    def sources(self) -> tuple[int, ...]:
        return tuple(s for s in (self.src0, self.src1) if s is not None)

    @property
    def has_destination(self) -> bool:
        return self.dst_hand is not None

    @property
    def mask(self) -> str:
        return PE_MODE_MASKS[self.pe_mode]


@dataclass(frozen=True)
class BIor(Command):
    """B.IOR scalar binding: three GPR sources and one GPR destination, raw 5-bit selectors
    (``B.IOR [a0, zero, zero], ->zero``)."""

    src0: int = 0
    src1: int = 0
    src2: int = 0
    dst: int = 0

    mnemonic = "B.IOR"

    @property
    def sources(self) -> tuple[int, int, int]:
        return (self.src0, self.src1, self.src2)


@dataclass(frozen=True)
class BIos(Command):
    """B.IOS Shared binding: ``S<tid>`` source (SizeCode 0) or destination (SizeCode 1..12)."""

    tid: int
    size_code: int = 0
    pe_mode: int = 7

    mnemonic = "B.IOS"

    @property
    def mask(self) -> str:
        return PE_MODE_MASKS[self.pe_mode]


@dataclass(frozen=True)
class BStop(Command):
    """BSTOP = 0x00000001 (PTO-SPEC 3.4)."""

    mnemonic = "BSTOP"


@dataclass(frozen=True)
class CBStop(Command):
    """C.BSTOP = 0x0000 (16-bit)."""

    mnemonic = "C.BSTOP"


@dataclass(frozen=True)
class LBStop(Command):
    """L.BSTOP: the 64-bit block stop, low word 0x0000000F and high word 0x00000001
    (``asl/block/lifecycle/L.BSTOP.asl``); it commits like BSTOP."""

    mnemonic = "L.BSTOP"


@dataclass(frozen=True)
class BCatr(Command):
    """B.CATR block control attributes (``asl/block/attributes/B.CATR.asl``): six independent
    one-bit fields, latched once in an active block header (a second one, or one outside a
    header, is BundleControl). ``dr`` (dimension reduction) is legal only in VEC, SFU and TLSU
    blocks (BundleControl at completion otherwise, ``asl/block/model/commit/validation.asl``);
    ``trap`` requests a synchronous trap after a successful commit."""

    dr: int = 0
    trap: int = 0
    far: int = 0
    atom: int = 0
    aq: int = 0
    rl: int = 0

    mnemonic = "B.CATR"


# -- scalar (non-tile) block starts: the 16-bit compressed forms ------------------------------


class BlockKind(NamedEnum):
    """BARG BlockType (``BundleKind``): what kind of block a start opens."""

    STD = "Standard"
    FP = "Floating"
    SYS = "System"
    TILE_ELEMENT = "TileElement"
    TILE_MATRIX = "TileMatrix"
    TILE_MEMORY = "TileMemory"


class Transfer(NamedEnum):
    """BARG TYPE (``BundleTransfer``): how the block's continuation is selected."""

    FALL = "Fallthrough"
    DIRECT = "Direct"
    COND = "Conditional"
    IND = "Indirect"
    RET = "Return"
    CALL = "Call"
    ICALL = "IndirectCall"


BRANCH_TYPES: dict[int, Transfer] = {1: Transfer.FALL, 5: Transfer.IND, 7: Transfer.RET}
"""The BrType codes a standalone C.BSTART.STD / C.BSTART.FP accepts, with their transfer
(``InstructionContractTransfer_C_BSTART_STD/FP``; ``BundleTransferOfBranchType``). Code 0 of
the STD form is C.BSTOP, 6 is only the low halfword of the fused BSTART.ICALL; 2, 3, 4 and 6
are IllegalInstruction."""
BRANCH_TYPE_NAMES = {code: {1: "FALL", 5: "IND", 7: "RET"}[code] for code in BRANCH_TYPES}


class ScalarStart(Command):
    """A start of a scalar (non-tile) block: its kind and transfer, no tile operation."""

    kind: BlockKind

    @property
    def transfer(self) -> Transfer:
        raise NotImplementedError


class DirectOrCond(ScalarStart):
    """A Standard-block start with a PC-relative candidate target ``P + (SignExtend(simm) <<
    1)`` (P = its own address): DIRECT installs TAKEN = 1, COND TAKEN = 0. ``SIMM`` names the
    raw displacement field and its width."""

    SIMM: tuple[str, int]
    cond: int
    kind = BlockKind.STD

    @property
    def transfer(self) -> Transfer:
        return Transfer.COND if self.cond else Transfer.DIRECT

    @property
    def displacement(self) -> int:
        """The signed byte displacement ``SignExtend(simm) << 1``."""
        name, bits = self.SIMM
        return _simm(getattr(self, name), bits) << 1


@dataclass(frozen=True)
class CBStart(DirectOrCond):
    """C.BSTART DIRECT|COND, simm12 (``asl/block/encoding/C.BSTART.asl``)."""

    cond: int
    simm12: int

    mnemonic = "C.BSTART"
    SIMM = ("simm12", 12)


@dataclass(frozen=True)
class CBStartTyped(ScalarStart):
    """A compressed start whose raw 3-bit ``brtype`` selects FALL, IND or RET (1, 5, 7)."""

    brtype: int

    @property
    def transfer(self) -> Transfer:
        return BRANCH_TYPES[self.brtype]


@dataclass(frozen=True)
class CBStartStd(CBStartTyped):
    """C.BSTART.STD FALL|IND|RET (``asl/block/encoding/C.BSTART.STD.asl``): a Standard
    block."""

    mnemonic = "C.BSTART.STD"
    kind = BlockKind.STD


@dataclass(frozen=True)
class CBStartFp(CBStartTyped):
    """C.BSTART.FP FALL|IND|RET (``asl/block/encoding/C.BSTART.FP.asl``): a Floating block."""

    mnemonic = "C.BSTART.FP"
    kind = BlockKind.FP


@dataclass(frozen=True)
class CBStartSys(ScalarStart):
    """C.BSTART.SYS FALL = 0x0840 (``asl/block/encoding/C.BSTART.SYS.asl``): the System block,
    sequential only (no BPCN/TYPE/TAKEN continuation)."""

    mnemonic = "C.BSTART.SYS"
    kind = BlockKind.SYS

    @property
    def transfer(self) -> Transfer:
        return Transfer.FALL


BSTART32_TRANSFERS: dict[int, Transfer] = {
    1: Transfer.FALL, 2: Transfer.DIRECT, 3: Transfer.COND, 5: Transfer.IND, 7: Transfer.RET}
"""Bits 14:12 of the 32-bit BSTART.STD / BSTART.FP forms (``asl/block/execution/BSTART.STD.asl``,
``BSTART.FP.asl``: one catalog form per transfer). 4 and 6 were the deleted bare CALL / ICALL
forms and 0 is BSTOP's: IllegalInstruction. FALL, IND and RET take no displacement."""
BSTART32_NAMES = {code: t.name for code, t in BSTART32_TRANSFERS.items()}
_NO_OFFSET = (Transfer.FALL, Transfer.IND, Transfer.RET)


def _simm(value: int, bits: int) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


@dataclass(frozen=True)
class BStart32(ScalarStart):
    """A 32-bit scalar block start: ``brtype`` (bits 14:12) selects the transfer, ``simm17``
    (bits 31:15, raw) the PC-relative displacement of DIRECT / COND."""

    brtype: int
    simm17: int = 0

    @property
    def transfer(self) -> Transfer:
        return BSTART32_TRANSFERS[self.brtype]

    @property
    def displacement(self) -> int:
        """The signed byte displacement ``SignExtend(simm17) << 1``."""
        return _simm(self.simm17, 17) << 1


@dataclass(frozen=True)
class BStartStd(BStart32):
    """BSTART.STD FALL|DIRECT|COND|IND|RET (``asl/block/execution/BSTART.STD.asl``)."""

    mnemonic = "BSTART.STD"
    kind = BlockKind.STD


@dataclass(frozen=True)
class BStartFp(BStart32):
    """BSTART.FP FALL|DIRECT|COND|IND|RET (``asl/block/execution/BSTART.FP.asl``)."""

    mnemonic = "BSTART.FP"
    kind = BlockKind.FP


@dataclass(frozen=True)
class BStartSys(BStart32):
    """BSTART.SYS FALL = 0x00001081 (``asl/block/execution/BSTART.SYS.asl``): a nonzero
    simm17 (the Fixup payload) is reserved."""

    brtype: int = 1

    mnemonic = "BSTART.SYS"
    kind = BlockKind.SYS

    @property
    def transfer(self) -> Transfer:
        return Transfer.FALL


@dataclass(frozen=True)
class BStartLong(DirectOrCond):
    """BSTART DIRECT|COND, simm25 (``asl/block/lifecycle/BSTART.asl``, low seven bits 0x11 /
    0x21)."""

    cond: int
    simm25: int

    mnemonic = "BSTART"
    SIMM = ("simm25", 25)


@dataclass(frozen=True)
class BStartCall(ScalarStart):
    """BSTART.CALL simm12, uimm5, ->ra (``asl/block/execution/BSTART.CALL.asl``; the fused
    32-bit word 0x50160002/0xF83F000F, simm12[15:4], uimm5[26:22]): a Standard block with the
    call target ``P + (SignExtend(simm12) << 1)``; ra = ``P + 2 + (uimm5 << 1)``."""

    simm12: int
    uimm5: int

    mnemonic = "BSTART.CALL"
    kind = BlockKind.STD
    transfer = Transfer.CALL

    @property
    def displacement(self) -> int:
        return _simm(self.simm12, 12) << 1


@dataclass(frozen=True)
class BStartICall(ScalarStart):
    """BSTART.ICALL uimm5, ->ra (``asl/block/execution/BSTART.ICALL.asl``; 0x50166001 /
    0xF83FFFFF, uimm5[26:22]): a Standard block whose call target is the retiring Standard or
    Floating block's BPCN; ra = ``P + 2 + (uimm5 << 1)``."""

    uimm5: int

    mnemonic = "BSTART.ICALL"
    kind = BlockKind.STD
    transfer = Transfer.ICALL


@dataclass(frozen=True)
class XB(Command):
    """XB ACR-ID, C-ID (``asl/block/encoding/XB.asl``): the cross-block transfer family
    0x00006F81/0x00007FFF, ACR-ID[24:15], CROSS-BID[31:25]. Reserved in PTO (extension
    space): every word of the family decodes to this form for collision inventory and raises
    IllegalInstruction before any field is interpreted or any state changes."""

    acr_id: int
    cross_bid: int

    mnemonic = "XB"


SCALAR_START_TYPES = (CBStart, CBStartStd, CBStartFp, CBStartSys, BStartStd, BStartFp, BStartSys,
                      BStartLong, BStartCall, BStartICall)  # fmt: skip
COMMAND_TYPES = (BStart, BDatr, BFpatr, BDim, CBDimi, BIot, BIor, BIos, BStop, CBStop, LBStop,
                 BCatr, *SCALAR_START_TYPES, XB)  # fmt: skip
STOP_TYPES = (BStop, CBStop, LBStop)
START_TYPES = (BStart, *SCALAR_START_TYPES)


def tile_block_kind(start: BStart) -> BlockKind:
    """BARG BlockType of a tile block: CUBE -> TileMatrix, TEPL (VEC/SFU) -> TileElement,
    TLSU -> TileMemory (``asl/block/model/commit/validation.asl`` names the DR classes)."""
    return {
        BlockFamily.CUBE: BlockKind.TILE_MATRIX,
        BlockFamily.TEPL: BlockKind.TILE_ELEMENT,
        BlockFamily.TLSU: BlockKind.TILE_MEMORY,
    }[start.family]


DR_KINDS = (BlockKind.TILE_ELEMENT, BlockKind.TILE_MEMORY)
"""Block kinds in which B.CATR DR=1 commits (VEC, SFU, TLSU); any other is BundleControl."""


# ---------------------------------------------------------------------------------------------
# Reserved values (Fault_IllegalInstruction at decode)
# ---------------------------------------------------------------------------------------------


def _dtype_reserved(code: int, allow_none: bool) -> str | None:
    if code in RESERVED_CODES:
        return f"DataType {code} is reserved"
    if code == DTYPE_NONE and not allow_none:
        return "DataType 31 (DTYPE_NONE) is not a concrete BSTART type"
    return None


def reserved_values(cmd: Command) -> list[str]:
    """Every reserved/malformed field value of ``cmd`` (empty when it decodes cleanly).

    These are the decode-time rules of PTO-SPEC 1, 3.1-3.4: reserved DataType codes, CUBE
    functions without a live operation (incl. 8 = deleted ACCCVT), unassigned TEPL selectors,
    B.DATR CMode 6-7 and reserved Layouts, B.FPATR reserved PreQuantMode/ReluMode/GroupNCode,
    GPR selectors 24-31, C.B.DIMI LoopNest 3, B.IOT/B.IOS SizeCodes outside their form.
    """
    bad: list[str] = []
    if isinstance(cmd, BStart):
        tmov = cmd.family is BlockFamily.TLSU and cmd.function in TMOV_FUNCTIONS
        if (r := _dtype_reserved(cmd.dtype, allow_none=tmov)) is not None:
            bad.append(r)
        if cmd.family is BlockFamily.CUBE and cmd.function not in CUBE_FUNCTIONS:
            gone = CUBE_DELETED.get(cmd.function)
            note = f" (deleted {gone})" if gone else ""
            bad.append(f"CUBE function {cmd.function}{note} is reserved")
        elif cmd.family is BlockFamily.TLSU and cmd.function not in TLSU_FUNCTIONS:
            bad.append(f"TLSU function {cmd.function} is reserved")
        elif cmd.family is BlockFamily.TEPL and (cmd.mode, cmd.function) not in TEPL_OPS:
            bad.append(
                f"TEPL selector Mode {cmd.mode} Function {cmd.function} "
                f"(0x{cmd.selector:03X}) is not assigned"
            )
        if cmd.family is not BlockFamily.TEPL and cmd.mode != 0:
            bad.append(f"{cmd.family} BSTART has no Mode field (bits 26:25 must be 0)")
    elif isinstance(cmd, BDatr):
        if (r := _dtype_reserved(cmd.dtype, allow_none=True)) is not None:
            bad.append(r)
        if cmd.cmode >= len(CMODES):
            bad.append(f"CMode {cmd.cmode} is reserved")
        if cmd.layout not in LAYOUTS:
            bad.append(f"Layout {cmd.layout} is reserved")
    elif isinstance(cmd, BFpatr):
        bad.extend(cmd.fpatr.reserved_values())
    elif isinstance(cmd, BDim):
        if cmd.reg >= GPR_COUNT:
            bad.append(f"B.DIM RegSrc {cmd.reg} is reserved (GPR selectors are 0..23)")
        if cmd.lb not in (0, 1, 2):
            bad.append(f"B.DIM has no LB{cmd.lb}")
    elif isinstance(cmd, CBDimi):
        if cmd.lb not in (0, 1, 2):
            bad.append(f"C.B.DIMI LoopNest {cmd.lb} is reserved")
    elif isinstance(cmd, BIot):
        if cmd.src0 is None and cmd.src1 is not None:
            bad.append("B.IOT has SrcTile1 without SrcTile0: no encoding form")
        elif cmd.src0 is None and cmd.dst_hand is None:
            bad.append("B.IOT with neither a source nor a destination has no encoding form")
        if cmd.dst_hand is None and cmd.size_code != 0:
            bad.append(f"source-only B.IOT needs SizeCode 0, not {cmd.size_code}")
        if cmd.dst_hand is not None and cmd.size_code not in LOCAL_SIZE_CODES:
            bad.append(f"B.IOT destination SizeCode {cmd.size_code} is not in 1..10")
    elif isinstance(cmd, BIor):
        for name in ("src0", "src1", "src2", "dst"):
            if getattr(cmd, name) >= GPR_COUNT:
                bad.append(f"B.IOR {name} selector {getattr(cmd, name)} is reserved")
    elif isinstance(cmd, BIos):
        if cmd.size_code > SHARED_SIZE_CODES[-1]:
            bad.append(f"B.IOS SizeCode {cmd.size_code} is reserved")
    elif isinstance(cmd, XB):
        bad.append("XB is extension space reserved in PTO: not executable (the cross-block "
                   "transfer handler is unsupported)")  # fmt: skip
    elif isinstance(cmd, CBStartStd | CBStartFp):
        if cmd.brtype not in BRANCH_TYPES:
            bad.append(f"BrType {cmd.brtype} is not a standalone {cmd.mnemonic} "
                       "(only 1 FALL, 5 IND, 7 RET)")  # fmt: skip
    elif isinstance(cmd, BStartSys):
        if cmd.brtype != 1:
            bad.append(f"BSTART.SYS has only the FALL form (bits 14:12 = 1, not {cmd.brtype})")
        elif cmd.simm17:
            bad.append(f"BSTART.SYS Fixup payload {cmd.simm17:#x} is reserved (simm17 must be 0)")
    elif isinstance(cmd, BStart32):
        if cmd.brtype not in BSTART32_TRANSFERS:
            gone = {4: " (the deleted bare CALL form)", 6: " (the deleted bare ICALL form)"}
            bad.append(f"{cmd.mnemonic} transfer code {cmd.brtype}{gone.get(cmd.brtype, '')} "
                       "is not assigned")  # fmt: skip
        elif cmd.transfer in _NO_OFFSET and cmd.simm17:
            bad.append(f"{cmd.mnemonic} {cmd.transfer.name} takes no displacement "
                       f"(simm17 = {cmd.simm17:#x})")  # fmt: skip
    return bad


def check_reserved(cmd: Command) -> None:
    """Raise ``PTOFault(IllegalInstruction)`` if ``cmd`` holds a reserved/malformed value."""
    bad = reserved_values(cmd)
    if bad:
        raise PTOFault(FaultKind.ILLEGAL_INSTRUCTION, "; ".join(bad), op=cmd.mnemonic)
