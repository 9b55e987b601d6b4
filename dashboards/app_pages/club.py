"""The club's page, an admin's: the audit log, the accounts, and invites made and cancelled."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import polars as pl
import streamlit as st

from dashboards.data import warehouse_path
from dashboards.i18n import t
from dashboards.tables import show
from dashboards.visitor import refusal, say_why_not, who
from ingest.club import Refused, accounts, audit, serving
from ingest.club.access import Denied, done, require
from ingest.club.names import ROLES

INVITE_LASTS = timedelta(hours=24)
SINCE = {"24h": timedelta(hours=24), "7d": timedelta(days=7), "30d": timedelta(days=30)}

st.title(t("club"))
VISITOR = who()
db = warehouse_path()
if not say_why_not(VISITOR, "audit.read"):
    st.stop()
try:
    require(db, VISITOR, "audit.read")  # the page's own check, beneath its layout's
except Denied as denied:
    st.error(refusal(denied, "audit.read"))
    st.stop()

st.subheader(t("club_audit"))
st.caption(t("club_audit_help"))
since = st.segmented_control(
    t("club_since"), list(SINCE), default="24h", key="club-since", selection_mode="single"
)
start = datetime.now(UTC) - SINCE[since or "24h"]
rows = [
    {
        "at": e.at.strftime("%Y-%m-%d %H:%M:%S"),
        "who": e.who,
        "where": e.where,
        "action": e.action,
        "what": ", ".join(f"{k}={v}" for k, v in e.what.items()),
        "refused": e.refused or "",
    }
    for e in audit.entries(db, since=start)
][::-1]
st.caption(t("club_entries").format(n=len(rows)))
show(
    pl.DataFrame(
        rows, schema={k: pl.String for k in ("at", "who", "where", "action", "what", "refused")}
    ),
    "club-audit",
)

st.subheader(t("club_users"))
people = accounts.users(db)
if not people:
    st.info(t("club_no_accounts"))
show(
    pl.DataFrame(
        [{"name": u.name, "role": u.role, "added": f"{u.added_at:%Y-%m-%d}"} for u in people],
        schema={"name": pl.String, "role": pl.String, "added": pl.String},
    ),
    "club-users",
)

st.subheader(t("club_invites"))
with st.form("club-invite"):
    left, right = st.columns(2)
    name = left.text_input(t("club_invite_name"), max_chars=64, key="club-invite-name")
    role = right.selectbox(
        t("club_role"), ROLES, index=1, format_func=lambda r: t(f"role_{r}"), key="club-invite-role"
    )
    made = st.form_submit_button(t("club_invite_make"))
if made:
    what = {"name": name, "role": role}
    try:
        require(db, VISITOR, "users.invite", what)
        made_invite, token = accounts.invite(db, name, role, INVITE_LASTS, made_by=VISITOR.said)
    except Denied as denied:
        st.error(refusal(denied, "users.invite"))
    except Refused as refusal_:
        audit.write(db, VISITOR.said, VISITOR.address, "users.invite", what, str(refusal_))
        st.error(str(refusal_))
    else:
        done(db, VISITOR, "users.invite", {**what, "invite": made_invite.id})
        how = serving.current()
        host = st.context.headers.get("host") or f"{how.address}:{how.port}"
        hours = int((made_invite.expires_at - made_invite.made_at).total_seconds() // 3600)
        st.success(t("club_invite_link").format(hours=hours))
        st.code(f"http://{host}/signin?invite={token}", language=None)
open_invites = [i for i in accounts.invites(db) if i.state == "open"]
for pending in open_invites:
    line = st.container(horizontal=True)
    line.write(
        f"{pending.name} · {t(f'role_{pending.role}')} · {pending.expires_at:%Y-%m-%d %H:%M} UTC"
    )
    if line.button(t("club_cancel"), key=f"club-cancel-{pending.id}"):
        try:
            require(db, VISITOR, "users.cancel", {"invite": pending.id})
            accounts.cancel(db, pending.id)
        except Denied as denied:
            st.error(refusal(denied, "users.cancel"))
        else:
            done(db, VISITOR, "users.cancel", {"invite": pending.id, "name": pending.name})
            st.rerun()
