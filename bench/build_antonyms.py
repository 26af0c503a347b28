"""Build ``provgraph/verification/antonyms_wordnet.txt``: WordNet's direct antonyms, inflected.

Usage::

    pip install nltk        # only for this script; not a provgraph dependency
    python bench/build_antonyms.py --nltk-data ~/nltk_data [--out FILE]

``--nltk-data`` is a folder holding ``corpora/wordnet/`` with the Princeton
WordNet 3.0 database files (``data.*``, ``index.*``, LF line endings: the
files address synsets by byte offset), read through NLTK's maintained
WordNet reader. The platform cannot fetch WordNet at run time, so the check
(:mod:`provgraph.verification.antonyms`) reads this derived list, which
carries WordNet's licence notice.

What is kept (a general lexicon, not fitted to any data): every *direct*
antonym pair of single-word, lower-case lemmas of at least three letters,
all parts of speech (WordNet's antonymy is lexical: "increase"/"decrease",
"conscious"/"unconscious", "winner"/"loser"), and each pair in every inflection
both words have for the same tag, from ``lemminflect``'s lexicon ("won"/"lost",
"bigger"/"smaller"), because the check compares crude stems and irregular forms
do not stem to their lemma. Indirect antonyms (similar-to chains) are left out:
they reach words whose opposition depends on the sense.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from lemminflect import getAllInflections

OUT = Path(__file__).resolve().parents[1] / "provgraph/verification/antonyms_wordnet.txt"
UPOS = {"n": "NOUN", "v": "VERB", "a": "ADJ", "s": "ADJ", "r": "ADV"}
HEADER = """\
# Direct antonyms of Princeton WordNet 3.0, with their inflections (lemminflect).
# Built by bench/build_antonyms.py; read by provgraph/verification/antonym_lexicon.py.
# One pair per line: word opposite.
#
# WordNet Release 3.0 This software and database is being provided to you, the
# LICENSEE, by Princeton University under the following license. By obtaining,
# using and/or copying this software and database, you agree that you have read,
# understood, and will comply with these terms and conditions.: Permission to
# use, copy, modify and distribute this software and database and its
# documentation for any purpose and without fee or royalty is hereby granted,
# provided that you agree to comply with the following copyright notice and
# statements, including the disclaimer, and that the same appear on ALL copies
# of the software, database and documentation, including modifications that you
# make for internal use or for distribution. WordNet 3.0 Copyright 2006 by
# Princeton University. All rights reserved. THIS SOFTWARE AND DATABASE IS
# PROVIDED "AS IS" AND PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR
# WARRANTIES, EXPRESS OR IMPLIED. BY WAY OF EXAMPLE, BUT NOT LIMITATION,
# PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES OF MERCHANT-
# ABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE OR THAT THE USE OF THE LICENSED
# SOFTWARE, DATABASE OR DOCUMENTATION WILL NOT INFRINGE ANY THIRD PARTY PATENTS,
# COPYRIGHTS, TRADEMARKS OR OTHER RIGHTS. The name of Princeton University or
# Princeton may not be used in advertising or publicity pertaining to
# distribution of the software and/or database. Title to copyright in this
# software, database and any associated documentation shall at all times remain
# with Princeton University and LICENSEE agrees to preserve same.
"""


def _usable(word: str) -> bool:
    return word.isalpha() and word.islower() and len(word) >= 3


def direct_antonyms(nltk_data: Path) -> set[tuple[str, str, str]]:
    """``(pos, a, b)`` with ``a < b`` for every direct antonym pair WordNet lists."""
    try:
        import nltk
        from nltk.corpus import wordnet
    except ImportError as exc:
        raise SystemExit(f"this script needs NLTK (pip install nltk): {exc}") from exc
    nltk.data.path.insert(0, str(nltk_data))
    pairs: set[tuple[str, str, str]] = set()
    for synset in wordnet.all_synsets():
        for lemma in synset.lemmas():
            for opposite in lemma.antonyms():
                a, b = lemma.name(), opposite.name()
                if _usable(a) and _usable(b) and a != b:
                    first, second = sorted((a, b))
                    pairs.add((synset.pos(), first, second))
    return pairs


def inflected(pos: str, a: str, b: str) -> set[tuple[str, str]]:
    """The pair, and the pair in every inflection tag both lemmas have."""
    out = {(a, b)}
    forms_a = getAllInflections(a, upos=UPOS[pos])
    forms_b = getAllInflections(b, upos=UPOS[pos])
    for tag in forms_a.keys() & forms_b.keys():
        out |= {(x, y) for x in forms_a[tag] for y in forms_b[tag] if _usable(x) and _usable(y)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nltk-data", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    lemmas = direct_antonyms(args.nltk_data.expanduser())
    pairs = sorted({p for pos, a, b in lemmas for p in inflected(pos, a, b) if p[0] != p[1]})
    lines = [f"{a} {b}" for a, b in pairs]
    args.out.write_text(HEADER + "\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lemmas)} lemma pairs, {len(pairs)} with inflections -> {args.out}")


if __name__ == "__main__":
    main()
