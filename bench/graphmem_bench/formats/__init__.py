"""Readers of the benchmark data sets (FactConsolidation, LoCoMo) into ``Record`` streams."""
