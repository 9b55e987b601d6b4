"""Albus Academy's rules in words: its rule set, every setting of its ruleset, the words its
settings' values are named by, and the catalogue squire ships, so that a match played under
changed numbers reads "Albus Academy standard, final turns: one each". `dashboards.rulesets`
reads these."""

LABELS: dict[str, dict[str, str]] = {
    "ruleset:albus-academy/standard": {"en": "standard", "zh": "标准规则"},
    "catalogue:albus-academy/albus-sample/1": {
        "en": "squire's sample set",
        "zh": "squire 示例套组",
    },
    "setting:albus-academy/min_players": {"en": "fewest players", "zh": "最少玩家数"},
    "setting:albus-academy/max_players": {"en": "most players", "zh": "最多玩家数"},
    "setting:albus-academy/board_rows": {"en": "board rows", "zh": "面板行数"},
    "setting:albus-academy/board_cols": {"en": "board columns", "zh": "面板列数"},
    "setting:albus-academy/start_will": {"en": "starting will", "zh": "初始意志"},
    "setting:albus-academy/start_shards": {"en": "starting shards", "zh": "初始碎片"},
    "setting:albus-academy/private_homework": {
        "en": "private homework dealt",
        "zh": "私人作业发放数",
    },
    "setting:albus-academy/will_max": {"en": "most will", "zh": "意志上限"},
    "setting:albus-academy/shards_per_collect": {
        "en": "shards a collect",
        "zh": "每次收集的碎片",
    },
    "setting:albus-academy/will_per_gain": {"en": "will a gain", "zh": "每次获得的意志"},
    "setting:albus-academy/public_tiles": {"en": "public tiles", "zh": "公共板块数"},
    "setting:albus-academy/public_homework": {"en": "public homework", "zh": "公共作业数"},
    "setting:albus-academy/end_homework": {
        "en": "homework that ends the game",
        "zh": "触发终局的作业数",
    },
    "setting:albus-academy/class_dismissed_prestige": {
        "en": "prestige of the class dismissed card",
        "zh": "下课卡的声望",
    },
    "setting:albus-academy/final_turns": {"en": "final turns", "zh": "终局回合"},
    "setting:albus-academy/final_turns=complete_round": {
        "en": "the round played out",
        "zh": "打完本轮",
    },
    "setting:albus-academy/final_turns=one_each": {
        "en": "one each",
        "zh": "其他玩家各一回合",
    },
    "setting:albus-academy/tie_break": {"en": "tie-break", "zh": "平局判定"},
    "setting:albus-academy/tie_break=homework": {
        "en": "more homework done",
        "zh": "完成作业多者胜",
    },
    "setting:albus-academy/tie_break=shared": {"en": "win shared", "zh": "共享胜利"},
}

# The strings a setting holds by the label that names them, field by field: none beyond the
# settings' own values above.
VALUES: dict[str, dict[str, str]] = {}
