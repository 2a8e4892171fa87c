"""The `pto` xDSL dialect: PTO tile types, attributes, ops and static legality."""
