"""In-process retrieval used by the comparison controls and the memory block ranker."""
