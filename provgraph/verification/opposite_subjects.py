"""Whether an opposite pair speaks of the same thing: the words a claim and a sentence
must share (:func:`same_subject`) and the numbers a text writes (:func:`numbers_in`). Split
from :mod:`.antonyms` (session 33), which reads the pairs.
"""

from __future__ import annotations

import re

from provgraph.verification.topic_words import VALUE_STEMS


def same_subject(
    claim_rest: set[str],
    sentence_content: set[str],
    claim_numbers: set[str],
    numbers: set[str],
    *,
    also_shared: bool = False,
) -> bool:
    """The sentence speaks of what the claim does: two shared content words besides the
    opposite, or, for a claim with fewer ("The couple divorced in 2015." / "The couple
    married in 2015 …"), every one the claim has and every number it names (a two-word
    claim can share only one word; "The factory opened in 1990." / "The factory closed
    in 2005." are two events, not a conflict). A number both name counts as one shared
    word: "The airline reported a profit for 2022." / "The airline posted a loss … for
    2022." share the airline and the year (session 24). One shared word must be more
    than a value or a time: "Exports grew by 6% in the second quarter." / "In the second
    quarter, the airline cut its fares by 6%." share only those (session 33). A time both
    name in other words ("in the fourth quarter" / "in the three months to December",
    "every day" / "on Mondays") or a comparison's other side both name ("… than the
    original building") counts as a shared number does (``also_shared``, session 36)."""
    if not (claim_rest & sentence_content) - VALUE_STEMS:
        return False
    shared_value = bool(claim_numbers & numbers) or also_shared
    if len(claim_rest & sentence_content) + shared_value >= 2:
        return True
    return bool(claim_rest) and claim_rest <= sentence_content and claim_numbers <= numbers


def numbers_in(text: str) -> set[str]:
    """The numbers written in ``text`` (digits, with their separators)."""
    return set(re.findall(r"\d+(?:[.,]\d+)*", text))
