"""Readers that turn data files into ``Record`` streams."""
