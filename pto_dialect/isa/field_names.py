"""Names of block-command field values, for the readable block IR (PTO-SPEC 1, 3, 7).

Built from the isa tables (the catalog's CUBE/TEPL/TLSU selectors, LAYOUTS, CMODES, RMODES,
PAD_VALUES, GPR_NAMES, HANDS, PE_MODE_MASKS, the TileDataType table), so an operation added
as a table row prints by name with no code here. Spellings are the assembly's
(:mod:`pto_dialect.isa.asm`): ``TREM``, ``TGEMVMX.BIAS``, ``S32``, ``DTYPE_NONE``, ``ND2M16``,
``Zero``, ``a0``, ``t#1``, ``1111``, ``4KB``. A value without a name (reserved codes) stays
a number, so malformed blocks remain representable.
"""

from __future__ import annotations

from pto_dialect.datatypes import DTYPE_NONE, TileDataType
from pto_dialect.isa.asm import size_text
from pto_dialect.isa.commands import (
    CMODES,
    CUBE_FUNCTIONS,
    GPR_NAMES,
    HANDS,
    LAYOUTS,
    PAD_VALUES,
    PE_MODE_MASKS,
    RMODES,
    TEPL_OPS,
    TLSU_FUNCTIONS,
    BDatr,
    BDim,
    BIor,
    BIos,
    BIot,
    BlockFamily,
    BStart,
    Command,
    tile_name,
)

_DTYPES = {int(t): t.asm for t in TileDataType}
_SIZES = {code: size_text(code) for code in range(1, 13)}
_GPRS = dict(enumerate(GPR_NAMES))
_MASKS = dict(enumerate(PE_MODE_MASKS))

FIELD_VALUES: dict[tuple[type[Command], str], dict[int, str]] = {
    (BStart, "dtype"): _DTYPES,
    (BDatr, "dtype"): {**_DTYPES, DTYPE_NONE: "DTYPE_NONE"},
    (BDatr, "layout"): dict(LAYOUTS),
    (BDatr, "pad"): dict(enumerate(PAD_VALUES)),
    (BDatr, "cmode"): dict(enumerate(CMODES)),
    (BDatr, "rmode"): dict(enumerate(RMODES)),
    (BDim, "reg"): _GPRS,
    **{(BIor, f): _GPRS for f in ("src0", "src1", "src2", "dst")},
    **{(BIot, f): {i: tile_name(i) for i in range(64)} for f in ("src0", "src1")},
    (BIot, "dst_hand"): dict(enumerate(HANDS)),
    (BIot, "pe_mode"): _MASKS,
    (BIot, "size_code"): {k: v for k, v in _SIZES.items() if k <= 10},
    (BIos, "pe_mode"): _MASKS,
    (BIos, "size_code"): _SIZES,
}
"""(command class, field) -> {raw value: name}. Fields not listed print as numbers."""

_BY_NAME = {
    key: {name.upper(): v for v, name in table.items()} for key, table in FIELD_VALUES.items()
}


def value_name(cmd: type[Command], field: str, value: int) -> str | None:
    """The name of a raw field value, or None (no table, or a reserved value)."""
    table = FIELD_VALUES.get((cmd, field))
    return None if table is None else table.get(value)


def value_of_name(cmd: type[Command], field: str, name: str) -> int | None:
    """The raw value of a field-value name (case-insensitive), or None."""
    table = _BY_NAME.get((cmd, field))
    return None if table is None else table.get(name.upper())


def names_of(cmd: type[Command], field: str) -> list[str]:
    return list(FIELD_VALUES.get((cmd, field), {}).values())


# -- BSTART: the operation by its assembly mnemonic ------------------------------------------

_START: dict[str, tuple[BlockFamily, int, int]] = {}
for _f in CUBE_FUNCTIONS.values():
    _START[_f.mnemonic] = (BlockFamily.CUBE, _f.code, 0)
for (_mode, _fn), _op in TEPL_OPS.items():
    _START[_op.name] = (BlockFamily.TEPL, _fn, _mode)
for _f in TLSU_FUNCTIONS.values():
    _START[_f.mnemonic] = (BlockFamily.TLSU, _f.code, 0)
START_MNEMONICS: dict[str, tuple[BlockFamily, int, int]] = dict(_START)
"""Assembly mnemonic (``TGEMVMX.BIAS``, ``TREM``, ``TLOAD``, ``MGATHER.MASK``) -> (family,
Function, Mode)."""
_START_ALIASES = {
    **{f.name: (BlockFamily.CUBE, f.code, 0) for f in CUBE_FUNCTIONS.values()},
    **{f.name: (BlockFamily.TLSU, f.code, 0) for f in TLSU_FUNCTIONS.values()},
}
"""Catalog names (``TGEMV_MX_BIAS``, ``MGATHER_MASK``) accepted on input."""
_MNEMONIC_OF = {sel: mn for mn, sel in START_MNEMONICS.items()}
assert len(_MNEMONIC_OF) == len(START_MNEMONICS), "BSTART mnemonics must be unique"
del _START, _f, _mode, _fn, _op


def start_mnemonic(family: BlockFamily, function: int, mode: int) -> str | None:
    """The assembly mnemonic of a live BSTART selector, or None (reserved / unassigned)."""
    return _MNEMONIC_OF.get((family, function, mode))


def start_of_mnemonic(name: str) -> tuple[BlockFamily, int, int] | None:
    """(family, Function, Mode) of a mnemonic or catalog name (case-insensitive), or None."""
    key = name.upper()
    return START_MNEMONICS.get(key) or _START_ALIASES.get(key)
