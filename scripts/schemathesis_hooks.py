"""Hooks for `make check-api`.

Two rules of the contract no schema can state are handled here.

Names: the contract counts a name's length in characters a person sees (extended grapheme clusters),
after trimming surrounding white space; RosterKit's UserValidation implements that, on client
and server alike. JSON Schema's maxLength counts code points before any trimming, so no schema
states that rule exactly. Every other generated body is kept; only over-long names whose
length could change under those two rules are left out: names longer than 100 code points that
are not plain ASCII without surrounding white space (ASCII letters never combine into one
grapheme; the controls that would, CR LF, are refused anyway).

Idempotency keys: a key is bound to the body it was first used with (a different body is 422
`idempotency_key_reused`), a rule about earlier requests. Generated keys repeat often ("0",
"00"), so before a create is sent, a well-formed key already used with another body is
replaced by a fresh one; the same key with the same body is kept, and exercises the replay.
A key whose user has since been deleted is replaced too: its replay is the first 201, whose
`Location` is gone, and schemathesis expects a 201 to leave a resource behind.
Only positive cases are changed: negative ones are refused anyway, and editing a case makes
schemathesis judge it anew (a "missing Authorization" case would then be sent with the token).
Malformed keys are sent as generated (400). The binding itself is tested by IdempotencyKeyTests.
"""
import json
import re
import uuid
from urllib.parse import urlsplit

import schemathesis


@schemathesis.hook
def filter_body(context, body):
    if not isinstance(body, dict):
        return True
    name = body.get("name")
    if not isinstance(name, str) or len(name) <= 100:
        return True
    return name.isascii() and name == name.strip()


_KEY_HEADER = "idempotency-key"
_WELL_FORMED_KEY = re.compile(r"^[!-~]([ -~]*[!-~])?$")
_first_body_of_key = {}
_location_of_key = {}
_deleted_paths = set()


@schemathesis.hook
def before_call(context, case, **kwargs):
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return
    headers = case.headers or {}
    name = next((name for name in headers if name.lower() == _KEY_HEADER), None)
    if name is None or not isinstance(headers[name], str):
        return
    key = headers[name]
    if len(key) > 255 or not _WELL_FORMED_KEY.match(key):
        return
    body = json.dumps(case.body, default=str)
    first = _first_body_of_key.setdefault(key, body)
    if first != body or _location_of_key.get(key) in _deleted_paths:
        key = uuid.uuid4().hex
        headers[name] = key
        _first_body_of_key[key] = body


@schemathesis.hook
def after_call(context, case, response):
    request = response.request
    if request.method == "DELETE" and response.status_code == 200:
        _deleted_paths.add(urlsplit(request.url).path)
    elif request.method == "POST" and response.status_code == 201:
        key = request.headers.get("Idempotency-Key")
        location = (response.headers.get("location") or [None])[0]
        if key and location:
            _location_of_key.setdefault(key, location)
