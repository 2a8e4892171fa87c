"""Pass name -> pass class, imported statically (each name is the class's own ``name``).

:func:`passes.get_all_passes` imports this module when a tool first asks for a pass: loading
every pass module costs about as much again as ``pto-opt`` with the dialect (``python -X
importtime``), which a run that only parses, verifies or prints does not pay.
"""

from __future__ import annotations

from xdsl.passes import ModulePass

from passes.convert_linalg_to_pto import ConvertLinalgToPtoPass
from passes.lowering.fusion import PTOFuseElementwisePass
from passes.lowering.report import PTOLoweringReportPass
from passes.pto_assign_registers import PTOAssignRegistersPass
from passes.pto_form_blocks import PTOFormBlocksPass
from passes.pto_lower import PTOLowerPass
from passes.pto_quantize_mx import PtoQuantizeMxPass
from passes.pto_tile_to_capacity import PtoTileToCapacityPass

PASS_CLASSES: tuple[type[ModulePass], ...] = (
    ConvertLinalgToPtoPass,
    PtoTileToCapacityPass,
    PTOLowerPass,
    PTOFormBlocksPass,
    PTOAssignRegistersPass,
    PTOLoweringReportPass,
    PtoQuantizeMxPass,
    PTOFuseElementwisePass,
)
PASSES: dict[str, type[ModulePass]] = {cls.name: cls for cls in PASS_CLASSES}
"""Pass name -> class, in ``pto-opt --help`` order (:data:`passes.PASS_NAMES`)."""
