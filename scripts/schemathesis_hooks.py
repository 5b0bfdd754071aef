"""Hooks for `make check-api`.

The contract counts a name's length in characters a person sees (extended grapheme clusters),
after trimming surrounding white space; RosterKit's UserValidation implements that, on client
and server alike. JSON Schema's maxLength counts code points before any trimming, so no schema
states that rule exactly. Every other generated body is kept; only over-long names whose
length could change under those two rules are left out: names longer than 100 code points that
are not plain ASCII without surrounding white space (ASCII letters never combine into one
grapheme; the controls that would, CR LF, are refused anyway).
"""
import schemathesis


@schemathesis.hook
def filter_body(context, body):
    if not isinstance(body, dict):
        return True
    name = body.get("name")
    if not isinstance(name, str) or len(name) <= 100:
        return True
    return name.isascii() and name == name.strip()
