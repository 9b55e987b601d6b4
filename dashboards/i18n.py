"""Labels in English and Chinese. `t(key)` gives the label in the language chosen in the
sidebar; a key with no entry shows as itself."""

from __future__ import annotations

import streamlit as st

LANGUAGES = {"en": "English", "zh": "中文"}

LABELS: dict[str, dict[str, str]] = {
    # pages
    "viewer": {"en": "Match viewer", "zh": "对局回放"},
    "sources": {"en": "Scoring sources", "zh": "得分来源"},
    "tracks": {"en": "Track races", "zh": "轨道竞赛"},
    "win_rates": {"en": "Win rates", "zh": "胜率"},
    "balance": {"en": "Balance", "zh": "平衡性"},
    "upload": {"en": "Upload logs", "zh": "上传记录"},
    # Knight Academy tracks (KA-1) and sources
    "courage": {"en": "Courage", "zh": "骑士风度"},
    "joust": {"en": "Joust", "zh": "马上比武"},
    "tournament": {"en": "Tournament", "zh": "骑士竞技"},
    "education": {"en": "Education", "zh": "教育"},
    "king": {"en": "King's service", "zh": "为国王服务"},
    "charity": {"en": "Charity", "zh": "慈善"},
    "quest": {"en": "Quest", "zh": "任务"},
    "knight-academy": {"en": "Knight Academy", "zh": "骑士学院"},
    # common words
    "language": {"en": "Language", "zh": "语言"},
    "game": {"en": "Game", "zh": "游戏"},
    "variant": {"en": "Variant", "zh": "变体"},
    "ruleset": {"en": "Rule set", "zh": "规则集"},
    "players": {"en": "Players", "zh": "人数"},
    "player": {"en": "Player", "zh": "玩家"},
    "bot": {"en": "Bot", "zh": "机器人"},
    "seat": {"en": "Seat", "zh": "座位"},
    "start_player": {"en": "Start player", "zh": "起始玩家"},
    "matches": {"en": "Matches", "zh": "对局数"},
    "wins": {"en": "Wins", "zh": "胜场"},
    "win_rate": {"en": "Win rate", "zh": "胜率"},
    "interval": {"en": "95% interval", "zh": "95% 置信区间"},
    "dates": {"en": "Played between", "zh": "对局日期"},
    "match": {"en": "Match", "zh": "对局"},
    "match_id": {"en": "Match id", "zh": "对局编号"},
    "find": {"en": "Find a match", "zh": "查找对局"},
    "step": {"en": "Step", "zh": "步骤"},
    "previous": {"en": "◀ Previous", "zh": "◀ 上一步"},
    "next": {"en": "Next ▶", "zh": "下一步 ▶"},
    "jump": {"en": "Jump to", "zh": "跳转到"},
    "round": {"en": "Round", "zh": "回合"},
    "phase": {"en": "Phase", "zh": "阶段"},
    "perspective": {"en": "Perspective", "zh": "视角"},
    "everyone": {"en": "Everyone (all hands open)", "zh": "全部（公开所有手牌）"},
    "hand": {"en": "Hand", "zh": "手牌"},
    "picked": {"en": "Picked", "zh": "已选"},
    "hidden": {"en": "hidden", "zh": "隐藏"},
    "deck": {"en": "Deck", "zh": "牌堆"},
    "discard": {"en": "Discard", "zh": "弃牌堆"},
    "score": {"en": "Score", "zh": "得分"},
    "total": {"en": "Total", "zh": "总分"},
    "events": {"en": "Events", "zh": "事件"},
    "facts": {"en": "What this event did", "zh": "本事件的结果"},
    "next_expected": {"en": "Next", "zh": "下一步"},
    "source": {"en": "Source", "zh": "来源"},
    "points": {"en": "Points", "zh": "分数"},
    "winners": {"en": "Winners", "zh": "胜者"},
    "others": {"en": "Others", "zh": "其他玩家"},
    "won": {"en": "Won", "zh": "获胜"},
    "mean": {"en": "Mean", "zh": "平均"},
    "share": {"en": "Share", "zh": "占比"},
    "decisive": {"en": "Decisive", "zh": "决定性"},
    "progress": {"en": "Progress", "zh": "进度"},
    "leader": {"en": "Leader", "zh": "领先者"},
    "lead_changes": {"en": "Lead changes", "zh": "领先易主次数"},
    "card": {"en": "Card", "zh": "卡牌"},
    "download_csv": {"en": "CSV", "zh": "CSV"},
    "download_parquet": {"en": "Parquet", "zh": "Parquet"},
    "empty": {"en": "No matches yet: ingest some logs (squire ingest PATH) or upload them.",
              "zh": "还没有对局：请导入记录（squire ingest PATH）或上传。"},
    "no_complete": {"en": "No complete match fits these filters.",
                    "zh": "没有符合筛选条件的完整对局。"},
    "seat_advantage": {"en": "seat advantage (p < 0.05)", "zh": "存在座位优势 (p < 0.05)"},
    "no_evidence": {"en": "no evidence of a seat advantage", "zh": "没有座位优势的证据"},
    "verdict": {"en": "Verdict", "zh": "结论"},
    "no_match": {"en": "No match with this id.", "zh": "没有这个编号的对局。"},
    "all": {"en": "All", "zh": "全部"},
    "lap": {"en": "lap", "zh": "圈"},
    "overview": {"en": "Matches in the warehouse", "zh": "仓库中的对局"},
    "latest": {"en": "Latest matches", "zh": "最近的对局"},
    "open_viewer": {"en": "Open in the viewer", "zh": "在回放中打开"},
    "phase_deal": {"en": "deal", "zh": "发牌"},
    "phase_pick": {"en": "draft", "zh": "选牌"},
    "phase_play": {"en": "play", "zh": "出牌"},
    "phase_bonus": {"en": "courage bonuses", "zh": "勇气奖励"},
    "phase_final": {"en": "final claim", "zh": "终局记录"},
    "phase_draft": {"en": "draft", "zh": "选牌"},
    "phase_over": {"en": "game over", "zh": "游戏结束"},
    "start": {"en": "start", "zh": "开始"},
    "neutral": {"en": "neutral seat", "zh": "中立玩家"},
    "cards": {"en": "cards", "zh": "张"},
    "game_over": {"en": "The game is over.", "zh": "游戏结束。"},
    "by": {"en": "by", "zh": "由"},
}


def language() -> str:
    lang = st.session_state.get("lang", "en")
    return lang if lang in LANGUAGES else "en"


def t(key: str) -> str:
    """The label for `key` in the chosen language."""
    entry = LABELS.get(key)
    if entry is None:
        return key
    return entry.get(language(), entry["en"])
