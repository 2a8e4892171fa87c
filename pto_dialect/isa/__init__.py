"""The PTO block ISA layer (pure Python, no xDSL): command model, the table of encoding forms,
encoder/decoder, assembly printer/parser and the block structure checker (PTO-SPEC 3, 7).

* :mod:`.commands` - frozen command dataclasses, selector tables, :func:`check_reserved`.
* :mod:`.forms` - THE table of encoding forms (match, mask, field bit-pieces).
* :mod:`.encoding` - :func:`encode`, :func:`decode`, program / bytes / hex streams.
* :mod:`.asm` - :func:`print_command`, :func:`parse_command`, program printer/parser.
* :mod:`.block` - :func:`check_block`, :func:`check_program`, :class:`BlockSummary`.
"""

from pto_dialect.isa.asm import parse_command, parse_program, print_command, print_program
from pto_dialect.isa.block import BlockSummary, check_block, check_program
from pto_dialect.isa.commands import (
    COMMAND_TYPES,
    CUBE_FUNCTIONS,
    TEPL_BY_NAME,
    TEPL_OPS,
    TLSU_FUNCTIONS,
    BDatr,
    BDim,
    BFpatr,
    BIor,
    BIos,
    BIot,
    BlockFamily,
    BStart,
    BStop,
    CBDimi,
    CBStop,
    Command,
    Engine,
    check_reserved,
    reserved_values,
)
from pto_dialect.isa.encoding import (
    decode,
    decode_hex,
    decode_program,
    encode,
    encode_hex,
    encode_program,
    program_to_bytes,
    read_hex,
    split_bytes,
    width_of,
    write_hex,
)
from pto_dialect.isa.errors import AsmSyntaxError, EncodeError
from pto_dialect.isa.forms import FORMS, Form

__all__ = [
    "AsmSyntaxError",
    "BDatr",
    "BDim",
    "BFpatr",
    "BIor",
    "BIos",
    "BIot",
    "BStart",
    "BStop",
    "BlockFamily",
    "BlockSummary",
    "CBDimi",
    "CBStop",
    "COMMAND_TYPES",
    "CUBE_FUNCTIONS",
    "Command",
    "EncodeError",
    "Engine",
    "FORMS",
    "Form",
    "TEPL_BY_NAME",
    "TEPL_OPS",
    "TLSU_FUNCTIONS",
    "check_block",
    "check_program",
    "check_reserved",
    "decode",
    "decode_hex",
    "decode_program",
    "encode",
    "encode_hex",
    "encode_program",
    "parse_command",
    "parse_program",
    "print_command",
    "print_program",
    "program_to_bytes",
    "read_hex",
    "reserved_values",
    "split_bytes",
    "width_of",
    "write_hex",
]
