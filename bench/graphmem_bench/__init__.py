"""Benchmarks of graphmem, outside the product: generators, scoring, baseline controls,
runners and the ``graphmem-bench`` command. Nothing in ``graphmem`` imports this package."""
