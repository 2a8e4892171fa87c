"""pto_dialect/tools"""
