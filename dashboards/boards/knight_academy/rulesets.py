"""Knight Academy's rules in words: its rule sets (KA-21's advanced rules, KA-22's variant
boards), every setting of its ruleset and the words its settings' values are named by, so that
a match played under changed numbers reads "Knight Academy standard, quest prizes: 12, 8, 4".
`dashboards.rulesets` reads these."""

from typing import get_args

from replay.games.knight_academy.config import BOARDS, Track

LABELS: dict[str, dict[str, str]] = {
    "ruleset:knight-academy/standard": {"en": "standard", "zh": "标准规则"},
    "ruleset:knight-academy/advanced": {"en": "advanced", "zh": "进阶规则"},
    "ruleset:knight-academy/knights": {
        "en": "with the White and Black Knight board",
        "zh": "白骑士与黑骑士变体图板",
    },
    "ruleset:knight-academy/wager": {
        "en": "with the Courage wager board",
        "zh": "勇气赌注变体图板",
    },
    "ruleset:knight-academy/codex": {
        "en": "with the Education codex board",
        "zh": "教育秘密法典变体图板",
    },
    "ruleset:knight-academy/scrolls": {
        "en": "with the King's scrolls board",
        "zh": "服侍国王卷轴变体图板",
    },
    "ruleset:knight-academy/quest": {
        "en": "with the Quest by shields board",
        "zh": "任务（按盾徽）变体图板",
    },
    "ruleset:knight-academy/mercy": {"en": "with the Mercy board", "zh": "仁慈变体图板"},
    "ruleset:knight-academy/all-boards": {
        "en": "with all six variant boards",
        "zh": "全部六块变体图板",
    },
    "setting:knight-academy/deck": {"en": "deck (copies of each card)", "zh": "牌组（每种牌张数）"},
    "setting:knight-academy/min_players": {"en": "fewest players", "zh": "最少玩家数"},
    "setting:knight-academy/max_players": {"en": "most players", "zh": "最多玩家数"},
    "setting:knight-academy/rounds": {"en": "rounds", "zh": "轮数"},
    "setting:knight-academy/hand_size": {"en": "cards dealt", "zh": "每人发牌数"},
    "setting:knight-academy/plays_per_round": {
        "en": "cards played a round",
        "zh": "每轮打出牌数",
    },
    "setting:knight-academy/pass_directions": {
        "en": "passing direction each round (1 to the left)",
        "zh": "每轮传牌方向（1 为向左）",
    },
    "setting:knight-academy/track_length": {"en": "squares a lap", "zh": "每圈格数"},
    "setting:knight-academy/king_cap": {
        "en": "King's service track's end",
        "zh": "为国王服务轨道上限",
    },
    "setting:knight-academy/place_min_seats": {
        "en": "players needed for each podium place",
        "zh": "各名次所需玩家数",
    },
    "setting:knight-academy/courage_bonus": {
        "en": "courage bonus squares, 1st to 3rd",
        "zh": "骑士风度奖励格数（第 1 至第 3 名）",
    },
    "setting:knight-academy/joust_prizes": {"en": "joust prizes", "zh": "马上比武奖励"},
    "setting:knight-academy/tournament_prizes": {
        "en": "tournament prizes",
        "zh": "骑士竞技奖励",
    },
    "setting:knight-academy/education_penalties": {
        "en": "education penalties, last and second-last",
        "zh": "教育惩罚（末位、倒数第二）",
    },
    "setting:knight-academy/king_awards": {
        "en": "King's service awards (from square, points)",
        "zh": "为国王服务奖励（起始格，分数）",
    },
    "setting:knight-academy/charity_penalties": {
        "en": "charity penalties, last and second-last",
        "zh": "慈善惩罚（末位、倒数第二）",
    },
    "setting:knight-academy/quest_prizes": {"en": "quest prizes", "zh": "任务奖励"},
    "setting:knight-academy/scoring_rounds": {
        "en": "rounds each track scores",
        "zh": "各轨道计分轮次",
    },
    "setting:knight-academy/reset_rounds": {"en": "reset after round", "zh": "重置轮次"},
    "setting:knight-academy/reset_tracks": {"en": "tracks reset", "zh": "重置的轨道"},
    "setting:knight-academy/lifts": {
        "en": "lifts of the start player's disc",
        "zh": "起始玩家抬起圆片次数",
    },
    "setting:knight-academy/courage_step_back": {
        "en": "courage squares back after the bonus",
        "zh": "骑士风度奖励后退格数",
    },
    "setting:knight-academy/rank_reset_tracks": {
        "en": "tracks reset by rank",
        "zh": "按名次重置的轨道",
    },
    "setting:knight-academy/lancelot_hand": {
        "en": "Lancelot's cards dealt",
        "zh": "兰斯洛特每人发牌数",
    },
    "setting:knight-academy/lancelot_pile": {
        "en": "Lancelot's cards a pile",
        "zh": "兰斯洛特每堆牌数",
    },
    "setting:knight-academy/boards": {"en": "variant boards", "zh": "变体图板"},
    "setting:knight-academy/grail_squares": {
        "en": "grail track's squares to each end",
        "zh": "圣杯轨道单侧格数",
    },
    "setting:knight-academy/knight_rounds": {
        "en": "rounds the knights score",
        "zh": "骑士计分轮次",
    },
    "setting:knight-academy/winning_knight_prizes": {
        "en": "winning knight's prizes",
        "zh": "获胜骑士奖励",
    },
    "setting:knight-academy/losing_knight_prizes": {
        "en": "losing knight's prizes",
        "zh": "落败骑士奖励",
    },
    "setting:knight-academy/codex_shields": {"en": "codex shields", "zh": "法典盾徽"},
    "setting:knight-academy/scroll_squares": {"en": "scrolls' squares", "zh": "卷轴所在格"},
    "setting:knight-academy/quest_shield_rates": {
        "en": "quest points per shields, 1st and 2nd",
        "zh": "任务每若干盾徽得分（第 1、第 2 名）",
    },
    "setting:knight-academy/quest_last_rate": {
        "en": "quest points per shields, last",
        "zh": "任务每若干盾徽得分（末位）",
    },
    "setting:knight-academy/mercy_takes": {
        "en": "shields the 1st and the 2nd take by mercy",
        "zh": "第 1、第 2 名以仁慈拿取的盾徽数",
    },
    "setting:knight-academy/mercy_max_value": {
        "en": "highest shield mercy takes",
        "zh": "仁慈可拿取的最高盾徽",
    },
    "setting:knight-academy/mercy_second_seats": {
        "en": "players for the 2nd's mercy",
        "zh": "第 2 名可仁慈交换所需玩家数",
    },
}

# The strings a setting holds, by the label that names them, field by field ("" for any field):
# tracks under their own names, the variant boards (KA-22) under theirs. A card is named by
# its type and value, as the move log names it.
VALUES: dict[str, dict[str, str]] = {
    "": {track: track for track in get_args(Track)},
    "boards": {board: f"board_{board}" for board in BOARDS},
}
