"""The two reads: evidence for a question (``evidence``) and memory blocks (``blocks``)."""
