"""The chat extractor: facts from chat messages in English and Korean, without a model."""

from graphmem.extract.chat.extractor import ChatExtractor
from graphmem.extract.chat.values import ValueSpan, find_values

__all__ = ["ChatExtractor", "ValueSpan", "find_values"]
