"""Signing in and out: the server's own pages beside the dashboards (`/signin`, `/signout`),
since a page script cannot set a cookie.

A password or an invite, checked, sets the session cookie (ingest.club.sessions): signed,
HttpOnly (no script reads it), SameSite=Lax (no other site's form sends it) and Secure where
the server is reached over HTTPS. Every sign-in, done or refused, is a line of the audit log.
A form is at most FORM_BYTES, and is taken only from a page of this server (its Origin), so
another site cannot sign a visitor in or out. Past TRIES failures from one address, each try
waits 2^(failures past TRIES) seconds, up to LONGEST_WAIT, before it is checked.
"""

from __future__ import annotations

import asyncio
import html
import threading
import time
from urllib.parse import parse_qs

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from dashboards.club_labels import said
from dashboards.data import warehouse_path
from ingest.club import Refused, accounts, audit, sessions
from ingest.club.accounts import InviteRefused
from replay.errors import one_line

FORM_BYTES = 16 * 1024  # a name, a password and an invite's token fit many times over
TRIES = 10  # failed sign-ins from one address before each waits
LONGEST_WAIT = 25.0  # seconds
FORGOTTEN = 3600.0  # seconds without a failure before an address's failures are forgotten


class Throttle:
    """Failed sign-ins by address, and how long the next try from there waits."""

    def __init__(self) -> None:
        self._failed: dict[str, tuple[int, float]] = {}
        self._lock = threading.Lock()

    def wait(self, address: str) -> float:
        with self._lock:
            failures, last = self._failed.get(address, (0, 0.0))
            if time.monotonic() - last > FORGOTTEN:
                return 0.0
        return 0.0 if failures < TRIES else min(LONGEST_WAIT, 2.0 ** (failures - TRIES + 1))

    def failed(self, address: str) -> None:
        with self._lock:
            failures, last = self._failed.get(address, (0, 0.0))
            if time.monotonic() - last > FORGOTTEN:
                failures = 0
            self._failed[address] = (failures + 1, time.monotonic())
            if len(self._failed) > 10_000:  # many addresses: the oldest are forgotten
                for old in sorted(self._failed, key=lambda a: self._failed[a][1])[:5_000]:
                    del self._failed[old]

    def passed(self, address: str) -> None:
        with self._lock:
            self._failed.pop(address, None)


THROTTLE = Throttle()


def routes() -> list[Route]:
    return [
        Route("/signin", signin_page, methods=["GET"]),
        Route("/signin", signin, methods=["POST"]),
        Route("/signin/invite", invited, methods=["POST"]),
        Route("/signout", signout_page, methods=["GET"]),
        Route("/signout", signout, methods=["POST"]),
    ]


async def signin_page(request: Request) -> Response:
    lang = _language(request)
    token = request.query_params.get("invite", "")
    return _page(lang, _invite_form(lang, token) if token else _password_form(lang))


async def signin(request: Request) -> Response:
    lang = _language(request)
    form = await _form(request)
    if isinstance(form, Response):
        return form
    name, password = form.get("name", ""), form.get("password", "")
    address = _address(request)
    await asyncio.sleep(THROTTLE.wait(address))
    db = warehouse_path()
    user = await run_in_threadpool(accounts.verify, db, name, password)
    if user is None:
        THROTTLE.failed(address)
        why = "the name or the password is wrong"
        await run_in_threadpool(
            audit.write, db, "anonymous", address, "signin", {"by": "password", "name": name}, why
        )
        return _page(lang, _password_form(lang, said("signin_wrong", lang), name), 401)
    THROTTLE.passed(address)
    await run_in_threadpool(audit.write, db, user.name, address, "signin", {"by": "password"})
    return _signed_in(request, db, user)


async def invited(request: Request) -> Response:
    lang = _language(request)
    form = await _form(request)
    if isinstance(form, Response):
        return form
    token, password = form.get("invite", ""), form.get("password", "") or None
    address = _address(request)
    await asyncio.sleep(THROTTLE.wait(address))
    db = warehouse_path()
    try:
        user = await run_in_threadpool(accounts.redeem, db, token, password)
    except InviteRefused as refusal:
        THROTTLE.failed(address)
        await run_in_threadpool(
            audit.write, db, "anonymous", address, "signin", {"by": "invite"}, str(refusal)
        )
        message = said(f"invite_{refusal.why}", lang)
        return _page(lang, f'<p class="refused">{html.escape(message)}</p>', 403)
    except Refused as refusal:  # the password chosen: the invite stays unused
        message = one_line(str(refusal))
        return _page(lang, _invite_form(lang, token, message), 400)
    THROTTLE.passed(address)
    await run_in_threadpool(audit.write, db, user.name, address, "signin", {"by": "invite"})
    return _signed_in(request, db, user)


async def signout_page(request: Request) -> Response:
    lang = _language(request)
    button = f'<button type="submit">{html.escape(said("signout", lang))}</button>'
    return _page(lang, f'<form method="post" action="/signout?lang={lang}">{button}</form>')


async def signout(request: Request) -> Response:
    form = await _form(request)
    if isinstance(form, Response):
        return form
    db = warehouse_path()
    user = sessions.signed_in(db, request.cookies.get(sessions.COOKIE))
    if user is not None:
        await run_in_threadpool(audit.write, db, user.name, _address(request), "signout", {})
    response = RedirectResponse(f"/?lang={_language(request)}", status_code=303)
    response.delete_cookie(sessions.COOKIE, path="/", httponly=True, samesite="lax")
    return response


def _signed_in(request: Request, db: object, user: accounts.User) -> Response:
    response = RedirectResponse(f"/?lang={_language(request)}", status_code=303)
    response.set_cookie(
        sessions.COOKIE,
        sessions.sign(warehouse_path(), user),
        max_age=int(sessions.LASTS.total_seconds()),
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return response


async def _form(request: Request) -> dict[str, str] | Response:
    """The form's fields, or the refusal of a form too big, of another kind, or sent from a
    page of another site."""
    lang = _language(request)
    origin = request.headers.get("origin")
    if (
        origin is not None
        and origin.split("://", 1)[-1].lower() != request.headers.get("host", "").lower()
    ):
        await _refused(request, "a form sent from another site's page")
        return _page(
            lang, f'<p class="refused">{html.escape(said("signin_elsewhere", lang))}</p>', 403
        )
    if request.headers.get("content-type", "").split(";")[0].strip() != (
        "application/x-www-form-urlencoded"
    ):
        return _page(lang, _password_form(lang), 415)
    body = bytearray()
    declared = request.headers.get("content-length", "0")
    if declared.isdigit() and int(declared) > FORM_BYTES:
        body = bytearray(FORM_BYTES + 1)
    else:
        async for chunk in request.stream():
            body += chunk
            if len(body) > FORM_BYTES:
                break
    if len(body) > FORM_BYTES:
        await _refused(request, f"a form of more than {FORM_BYTES} bytes")
        return _page(
            lang, f'<p class="refused">{html.escape(said("signin_too_big", lang))}</p>', 413
        )
    fields = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
    return {k: v[0] for k, v in fields.items() if v}


async def _refused(request: Request, why: str) -> None:
    await run_in_threadpool(
        audit.write, warehouse_path(), "anonymous", _address(request), "signin", {}, why
    )


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _language(request: Request) -> str:
    asked = request.query_params.get("lang")
    if asked in ("en", "zh"):
        return asked
    return "zh" if request.headers.get("accept-language", "").lower().startswith("zh") else "en"


def _password_form(lang: str, message: str = "", name: str = "") -> str:
    e = html.escape
    refused = f'<p class="refused" role="alert">{e(message)}</p>' if message else ""
    return (
        f'{refused}<form method="post" action="/signin?lang={lang}">'
        f'<label>{e(said("signin_name", lang))}<input name="name" value="{e(name)}" '
        'autocomplete="username" autocapitalize="none" required maxlength="64"></label>'
        f'<label>{e(said("signin_password", lang))}<input name="password" type="password" '
        'autocomplete="current-password" required maxlength="1024"></label>'
        f'<button type="submit">{e(said("signin", lang))}</button></form>'
    )


def _invite_form(lang: str, token: str, message: str = "") -> str:
    e = html.escape
    refused = f'<p class="refused" role="alert">{e(message)}</p>' if message else ""
    return (
        f"{refused}<p>{e(said('invite_intro', lang))}</p>"
        f'<form method="post" action="/signin/invite?lang={lang}">'
        f'<input type="hidden" name="invite" value="{e(token)}">'
        f'<label>{e(said("invite_password", lang))}<input name="password" type="password" '
        'autocomplete="new-password" minlength="8" maxlength="1024"></label>'
        f'<button type="submit">{e(said("invite_use", lang))}</button></form>'
    )


def _page(lang: str, body: str, status: int = 200) -> HTMLResponse:
    other = "zh" if lang == "en" else "en"
    switch = f'<a href="?lang={other}">{"中文" if other == "zh" else "English"}</a>'
    text = f"""<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>squire · {html.escape(said("signin", lang))}</title>
<style>
body{{font-family:system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;
color:#262730}}
h1{{font-size:1.4rem}} label{{display:block;margin:1rem 0}}
input{{display:block;width:100%;box-sizing:border-box;padding:.6rem;font-size:1rem;
margin-top:.3rem;border:1px solid #bbb;border-radius:.4rem}}
button{{padding:.6rem 1.2rem;font-size:1rem;border-radius:.4rem;border:0;background:#ff4b4b;
color:white}} .refused{{color:#b00020}} nav{{margin-top:2rem;font-size:.9rem}}
</style></head><body>
<h1>squire</h1>
{body}
<nav><a href="/?lang={lang}">{html.escape(said("signin_back", lang))}</a> · {switch}</nav>
</body></html>"""
    return HTMLResponse(text, status_code=status, headers=_HEADERS)


# A page of this server's only, in no other site's frame, its forms sent nowhere else.
_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    # the invite's token stays out of other sites' logs; "no-referrer" would make the
    # browser send its forms with `Origin: null`, which is refused
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}
