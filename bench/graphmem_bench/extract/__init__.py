"""Extractors only the benchmarks use: the grammar adapter (MQuAKE cloze templates) and
the regex templates it is built on."""
