"""English pronunciations in the cross-script linker's phoneme alphabet.

Spelling says little about how English sounds ("Jefferson" is 제퍼슨, "Gates" 게이츠,
"Chopin" 쇼팽), and Korean writes an English name by its sound. The CMU Pronouncing
Dictionary (126k words, many of them names; BSD-licensed, shipped gzipped beside this
module with its licence) gives the sound as ARPAbet phones; they are mapped here the way
the Korean rules for writing English loanwords map them: schwa and the vowel of "but" to
ㅓ, ER to ㅓ with a silent r, SH before a vowel to ㅅ with a y-glide (쇼, 셰), a final
plural z to 즈, CH and JH to ㅊ/ㅈ, TH to ㅅ, DH to ㄷ, an r after a front or high vowel
to 어.

The table is read once per process, on first use (about 0.7 s).
"""

from __future__ import annotations

import gzip
import re
import threading
from importlib import resources

__all__ = ["arpabet_phonemes", "english_pronunciations"]

# Vowels, in the linker's coarse alphabet (ㅓ and ㅗ are both "o").
_VOWELS = {
    "AA": "a",
    "AE": "e",
    "AH": "o",
    "AO": "o",
    "AW": "au",
    "AY": "ai",
    "EH": "e",
    "ER": "oR",
    "EY": "ei",
    "IH": "i",
    "IY": "i",
    "OW": "o",
    "OY": "oi",
    "UH": "u",
    "UW": "u",
}
_CONSONANTS = {
    "B": "P",
    "P": "P",
    "F": "P",
    "V": "P",
    "D": "T",
    "T": "T",
    "DH": "T",
    "TH": "S",
    "G": "K",
    "K": "K",
    "CH": "J",
    "JH": "J",
    "S": "S",
    "Z": "J",
    "SH": "S",
    "ZH": "J",
    "HH": "H",
    "L": "L",
    "R": "L",
    "M": "M",
    "N": "N",
    "NG": "G",
    "W": "u",
    "Y": "i",
}
_CENTERING = frozenset({"EH", "IH", "IY", "UH", "UW", "AY", "AW", "EY"})
MAX_PRONUNCIATIONS = 2  # per word: the dictionary's first variants


def arpabet_phonemes(phones: list[str]) -> str:
    """ARPAbet phones (stress digits allowed) in the linker's phoneme alphabet."""
    bare = [p.rstrip("012") for p in phones]
    out: list[str] = []
    for i, p in enumerate(bare):
        after = bare[i + 1] if i + 1 < len(bare) else None
        before = bare[i - 1] if i else None
        if p in _VOWELS:
            out.append(_VOWELS[p])
        elif p not in _CONSONANTS:
            continue  # an unknown symbol: better missing than wrong
        elif (p, after) in (("W", "UW"), ("W", "UH"), ("Y", "IY"), ("Y", "IH")):
            continue  # the glide is the vowel ("우드" for wood)
        elif p == "R" and after not in _VOWELS:
            # r after a vowel is not written (커쇼 for Kershaw), but after a front or
            # high vowel it leaves an 어 behind (블레어 for Blair, 무어 for Moore)
            out.append("oR" if before in _CENTERING else "R")
        elif p == "SH" and (
            after is None or (after in _VOWELS and not _VOWELS[after].startswith("i"))
        ):
            out.append("Si")  # 쇼, 셰, 시: sh carries a y-glide
        elif p in ("S", "Z") and after is None and before in ("T", "D"):
            out.append("J")  # "Gates" 게이츠, "Leeds" 리즈
        elif p == "Z" and after is None and before is not None:
            out.append("Z")  # a plural s, often left out
        else:
            out.append(_CONSONANTS[p])
    return "".join(out)


_table: dict[str, tuple[str, ...]] | None = None
_lock = threading.Lock()


def english_pronunciations(word: str) -> tuple[str, ...]:
    """How the dictionary says ``word`` (lower case, plain letters), or ``()``."""
    table = _table if _table is not None else _load()
    return table.get(word, ())


def _load() -> dict[str, tuple[str, ...]]:
    global _table
    with _lock:
        if _table is None:
            raw = resources.files("graphmem.language").joinpath("data/cmudict.dict.gz")
            table: dict[str, list[str]] = {}
            with raw.open("rb") as fh, gzip.open(fh, "rt", encoding="utf-8") as lines:
                for line in lines:
                    word, *phones = line.split("#", 1)[0].split()
                    if not phones:
                        continue
                    word = re.sub(r"\(\d+\)$", "", word)  # "washington(2)": a variant
                    forms = table.setdefault(word, [])
                    p = arpabet_phonemes(phones)
                    if len(forms) < MAX_PRONUNCIATIONS and p not in forms:
                        forms.append(p)
            _table = {w: tuple(f) for w, f in table.items()}
        return _table
