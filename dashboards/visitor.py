"""Who is looking at a page: the account the session cookie signs in, or no one, in the role
the server gives a visitor who has not signed in (ingest.club.access). Read afresh on every
run of a page, so a session ended on the server (an account removed, a role changed) ends on
the next click, not at the next visit."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from dashboards.data import warehouse_path
from dashboards.i18n import t
from ingest.club import accounts, serving, sessions
from ingest.club.access import ACTIONS, Denied, Who, anonymous_role, may


def cookie() -> str | None:
    """The session cookie the browser sent as the page's connection opened."""
    found = st.context.cookies.get(sessions.COOKIE)
    return found if isinstance(found, str) else None  # an app test's context sends none


def who() -> Who:
    db = warehouse_path()
    sent = st.context.ip_address
    address = sent if isinstance(sent, str) and sent else "local"  # None: this machine
    user = sessions.signed_in(db, cookie())
    if user is not None:
        return Who(user.name, user.role, address)
    how = serving.current()
    return Who(None, anonymous_role(bool(accounts.users(db)), how.loopback, how.open), address)


def signed_in_line(visitor: Who) -> None:
    """The sidebar's line: who is signed in, in what role, and the way to sign in or out."""
    lang = st.session_state.get("lang", "en")
    role = t(f"role_{visitor.role}")
    if visitor.name is not None:
        st.sidebar.caption(t("signed_in_as").format(name=visitor.name, role=role))
        st.sidebar.markdown(f"[{t('signout')}](/signout?lang={lang})")
        return
    how = serving.current()
    if not accounts.users(warehouse_path()):
        if how.open and not how.loopback:
            st.sidebar.warning(t("server_open"))
        return  # a laptop's squire, as it always was: nothing to sign in to
    st.sidebar.caption(t("not_signed_in").format(role=role))
    st.sidebar.markdown(f"[{t('signin')}](/signin?lang={lang})")


def refusal(denied: Denied, action: str) -> str:
    """Why a visitor may not do `action`, in the page's language."""
    if denied.why == "role":
        least = ACTIONS[action][0]
        return t("denied_role").format(action=t(f"action_{action}"), role=t(f"whose_{least}"))
    if denied.why == "table":
        return t("denied_table")
    return str(denied)


def say_why_not(visitor: Who, action: str) -> bool:
    """Whether `visitor` may do `action`; where not, the page says why (the function beneath
    refuses it all the same)."""
    if may(visitor, action):
        return True
    least = ACTIONS[action][0]
    st.info(t("denied_role").format(action=t(f"action_{action}"), role=t(f"whose_{least}")))
    return False


def queued() -> Callable[[int], None]:
    """What a heavy job's wait for the server's slot shows: how many are ahead of it."""
    box = st.empty()

    def waiting(ahead: int) -> None:
        box.info(t("queue_waiting").format(n=ahead))

    return waiting
