"""Passes over PTO IR (every pass name contains `pto`)."""
