"""The words of a club's server: signing in, roles, refusals, the queue and the audit page,
in English and Chinese. The sign-in pages are the server's own, outside any page script, so
they ask `said(key, lang)` in the language their address names."""

from __future__ import annotations

CLUB_LABELS: dict[str, dict[str, str]] = {
    "signin": {"en": "Sign in", "zh": "登录"},
    "signout": {"en": "Sign out", "zh": "退出登录"},
    "signin_name": {"en": "Name", "zh": "名字"},
    "signin_password": {"en": "Password", "zh": "密码"},
    "signin_wrong": {"en": "The name or the password is wrong.", "zh": "名字或密码不对。"},
    "signin_back": {"en": "Back to the dashboards", "zh": "返回仪表盘"},
    "signin_elsewhere": {
        "en": "This form came from another site's page, so it was not taken.",
        "zh": "这个表单来自其他网站的页面，未被接受。",
    },
    "signin_too_big": {
        "en": "This form is too big to be a sign-in.",
        "zh": "表单过大，不是登录表单。",
    },
    "invite_intro": {
        "en": "This invite signs this device in. You may choose a password to sign in with "
        "later, or leave it empty: this device stays signed in for 30 days.",
        "zh": "此邀请链接会让这台设备登录。你可以设置一个以后登录用的密码，也可以留空："
        "这台设备会保持登录 30 天。",
    },
    "invite_password": {
        "en": "A password (optional, 8 characters or more)",
        "zh": "密码（可选，至少 8 个字符）",
    },
    "invite_use": {"en": "Sign in with this invite", "zh": "用此邀请登录"},
    "invite_unknown": {
        "en": "This invite link is not one this server made.",
        "zh": "这个邀请链接不是本服务器生成的。",
    },
    "invite_expired": {
        "en": "This invite has expired: ask for a new one.",
        "zh": "此邀请已过期：请索取新的邀请。",
    },
    "invite_used": {
        "en": "This invite was used already: ask for a new one.",
        "zh": "此邀请已被使用：请索取新的邀请。",
    },
    "invite_cancelled": {"en": "This invite was cancelled.", "zh": "此邀请已被取消。"},
    "invite_changed": {
        "en": "The account this invite was for has changed since: ask for a new one.",
        "zh": "此邀请对应的账户已变更：请索取新的邀请。",
    },
    "signed_in_as": {"en": "Signed in as {name} · {role}", "zh": "已登录：{name} · {role}"},
    "not_signed_in": {"en": "Not signed in · {role}", "zh": "未登录 · {role}"},
    "role_viewer": {"en": "viewer", "zh": "查看者"},
    "role_member": {"en": "member", "zh": "成员"},
    "role_admin": {"en": "admin", "zh": "管理员"},
    "server_open": {
        "en": "This server is open: anyone who reaches it may upload, record matches and run "
        "analyses, without signing in.",
        "zh": "此服务器是开放的：任何能访问它的人无需登录即可上传、记录对局和运行分析。",
    },
    "denied_role": {
        "en": "{action} needs {role} account: sign in as one.",
        "zh": "{action}需要{role}账户：请以该身份登录。",
    },
    "whose_viewer": {"en": "a viewer's", "zh": "查看者"},
    "whose_member": {"en": "a member's", "zh": "成员"},
    "whose_admin": {"en": "an admin's", "zh": "管理员"},
    "denied_table": {
        "en": "This draft belongs to another table: its scribe or an admin can open it.",
        "zh": "此草稿属于另一桌：只有它的记录者或管理员可以打开。",
    },
    "denied_quota": {
        "en": "You have used this hour's {kind}: the next is free in {minutes} min.",
        "zh": "你本小时的{kind}已用完：{minutes} 分钟后可再用。",
    },
    "denied_drafts": {
        "en": "You have {n} open drafts, the most a member may have: save or discard one first.",
        "zh": "你已有 {n} 份未完成的草稿，已达上限：请先保存或放弃一份。",
    },
    "kind_heavy": {"en": "analyses", "zh": "分析次数"},
    "kind_upload": {"en": "uploads", "zh": "上传次数"},
    "action_upload": {"en": "Uploading logs", "zh": "上传记录"},
    "action_upload.resume": {"en": "Ingesting a stopped upload", "zh": "重新导入中断的上传"},
    "action_upload.let_go": {"en": "Letting go of an upload", "zh": "放弃上传"},
    "action_record.start": {"en": "Recording a match", "zh": "记录对局"},
    "action_record.open": {"en": "Opening a draft", "zh": "打开草稿"},
    "action_record.enter": {"en": "Entering a move", "zh": "录入行动"},
    "action_record.save": {"en": "Saving a recorded match", "zh": "保存记录的对局"},
    "action_record.discard": {"en": "Discarding a draft", "zh": "放弃草稿"},
    "action_record.invite": {
        "en": "Opening a draft to another account",
        "zh": "把草稿开放给其他账户",
    },
    "action_analysis": {"en": "Analysing the moves", "zh": "分析行动"},
    "action_rescore": {"en": "Rescoring", "zh": "重新计分"},
    "action_experiment": {"en": "Running an experiment", "zh": "运行实验"},
    "action_users.invite": {"en": "Making an invite", "zh": "生成邀请"},
    "action_users.cancel": {"en": "Cancelling an invite", "zh": "取消邀请"},
    "action_audit.read": {"en": "Reading the audit log", "zh": "查看审计日志"},
    "queue_waiting": {
        "en": "Waiting for the server's one slot for heavy work: {n} ahead of you.",
        "zh": "正在等待服务器唯一的重任务名额：前面还有 {n} 个。",
    },
    "club": {"en": "Club", "zh": "俱乐部"},
    "club_audit": {"en": "Audit log", "zh": "审计日志"},
    "club_audit_help": {
        "en": "Every sign-in, upload, recording saved, analysis and account change, done or "
        "refused, the newest first. Nothing here can be changed from the web.",
        "zh": "每次登录、上传、保存记录、分析和账户变更（无论成功或被拒），最新的在前。"
        "网页上无法修改其中任何内容。",
    },
    "club_since": {"en": "Since", "zh": "起始"},
    "club_entries": {"en": "{n} entries", "zh": "{n} 条记录"},
    "club_users": {"en": "Accounts", "zh": "账户"},
    "club_invites": {"en": "Invites", "zh": "邀请"},
    "club_invite_make": {"en": "Make an invite", "zh": "生成邀请"},
    "club_invite_name": {"en": "For (a name)", "zh": "给（名字）"},
    "club_invite_link": {
        "en": "Open this link on the phone, once, within {hours} h:",
        "zh": "请在 {hours} 小时内在手机上打开此链接（仅可用一次）：",
    },
    "club_role": {"en": "Role", "zh": "角色"},
    "club_cancel": {"en": "Cancel", "zh": "取消"},
    "club_no_accounts": {
        "en": "No accounts yet: `squire users add NAME --role admin` adds the first.",
        "zh": "还没有账户：`squire users add NAME --role admin` 添加第一个。",
    },
    "table_members": {"en": "Also at this table", "zh": "同桌的其他账户"},
    "table_members_help": {
        "en": "Accounts that may open this draft and enter their own moves.",
        "zh": "可以打开此草稿并录入自己行动的账户。",
    },
    "drafts_elsewhere": {
        "en": "{n} other tables' drafts are not yours to open.",
        "zh": "另有 {n} 份其他桌的草稿，你无权打开。",
    },
}


def said(key: str, lang: str) -> str:
    entry = CLUB_LABELS.get(key)
    return key if entry is None else entry.get(lang, entry["en"])
