"""The one place in the harness that knows words of a human language.

Everything else decides from what ran (calls, fates, results, sources). What is left
here is the fencing rule's sense of instruction-shaped text: a line of a file, a page
or a mail that talks to an assistant ("ignore previous instructions", "you must",
"send … to …@…") is marked as data before the model reads it. It is written for
English, German, Spanish and French, and tested in each (tests/test_words.py).
"""

from __future__ import annotations

import re

_IGNORE = r"ignore|disregard|forget|ignoriere|ignorier|vergiss|ignora|olvida|oublie|ignorez|oubliez"
_PREVIOUS = (r"previous|prior|above|earlier|all|vorherigen?|bisherigen?|alle|obigen?|anteriores?|previas?|todas?"
             r"|précédentes?|precedentes?|toutes?|antérieures?")
_INSTRUCTIONS = r"instructions?|rules?|prompts?|anweisungen|regeln|instrucciones|reglas|consignes|règles"
_MUST = (r"you\s+(?:must|should|are\s+required\s+to|have\s+to|need\s+to)|du\s+(?:musst|sollst)|sie\s+müssen"
         r"|debes|tienes\s+que|vous\s+devez|tu\s+dois")
_FROM_NOW = r"from\s+now\s+on|ab\s+(?:jetzt|sofort)|a\s+partir\s+de\s+ahora|désormais|dorénavant|à\s+partir\s+de\s+maintenant"
_REMEMBER = (r"remember\s+that|from\s+now\s+on\s+remember|merke?\s+dir|vergiss\s+nicht,?\s+dass|recuerda\s+que"
             r"|souviens-toi|rappelle-toi|retiens\s+que")
_SEND = r"send|forward|e-?mail|sende|schicke?|leite|envía|envia|reenvía|manda|envoie|envoyez|transfère|transférez"

INSTRUCTION_SHAPED = re.compile(
    rf"""(
        ^\s*(system|assistant|user|developer)\s*: |
        <\|im_(start|end)\|> | \[/?INST\] | <\|(system|assistant|user)\|> |
        \b({_IGNORE})\b.{{0,40}}\b({_PREVIOUS})\b.{{0,30}}\b({_INSTRUCTIONS})\b |
        \b({_MUST})\b |
        \b({_FROM_NOW})\b | ^\W*({_REMEMBER})\b |
        <tool_call> | <function= | "name"\s*:\s*"[\w.]+"\s*,\s*"arguments" |
        \b({_SEND})\b.{{0,60}}@
    )""",
    re.IGNORECASE | re.VERBOSE,
)
"""A line of outside content that reads as an order to an assistant, in any of the four languages."""


def instruction_shaped(line: str) -> bool:
    return INSTRUCTION_SHAPED.search(line) is not None
