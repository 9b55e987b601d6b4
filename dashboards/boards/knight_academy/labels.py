"""Knight Academy's words: its tracks and sources (KA-1), its variant boards (KA-22), its
phases, and its draft."""

LABELS: dict[str, dict[str, str]] = {
    "courage": {"en": "Courage", "zh": "骑士风度"},
    "joust": {"en": "Joust", "zh": "马上比武"},
    "tournament": {"en": "Tournament", "zh": "骑士竞技"},
    "education": {"en": "Education", "zh": "教育"},
    "king": {"en": "King's service", "zh": "为国王服务"},
    "charity": {"en": "Charity", "zh": "慈善"},
    "quest": {"en": "Quest", "zh": "任务"},
    "white": {"en": "White Knight", "zh": "白骑士"},
    "black": {"en": "Black Knight", "zh": "黑骑士"},
    "codex": {"en": "Secret codex", "zh": "秘密法典"},
    "quest_shields": {"en": "Quest by shields", "zh": "任务（按盾徽）"},
    "mercy": {"en": "Mercy swaps", "zh": "仁慈交换"},
    "board_knights": {"en": "White and Black Knight", "zh": "白骑士与黑骑士"},
    "board_wager": {"en": "Courage wager", "zh": "勇气赌注"},
    "board_codex": {"en": "Education codex", "zh": "教育秘密法典"},
    "board_scrolls": {"en": "King's scrolls", "zh": "服侍国王卷轴"},
    "board_quest": {"en": "Quest by shields", "zh": "任务（按盾徽）"},
    "board_mercy": {"en": "Mercy", "zh": "仁慈"},
    "variant_boards": {"en": "Variant boards", "zh": "变体图板"},
    "grail": {"en": "Grail", "zh": "圣杯"},
    "wager": {"en": "Wager", "zh": "赌注"},
    "scroll": {"en": "Scroll", "zh": "卷轴"},
    "codex_slot": {"en": "Codex slot", "zh": "法典位置"},
    "slot_taken": {"en": "taken", "zh": "已取走"},
    "shields_held": {"en": "Shields", "zh": "盾徽"},
    "hand": {"en": "Hand", "zh": "手牌"},
    "picked": {"en": "Picked", "zh": "已选"},
    "discard": {"en": "Discard", "zh": "弃牌堆"},
    "lap": {"en": "lap", "zh": "圈"},
    "cards": {"en": "cards", "zh": "张"},
    "phase_deal": {"en": "deal", "zh": "发牌"},
    "phase_pick": {"en": "draft", "zh": "选牌"},
    "phase_lift": {"en": "lift before scoring", "zh": "计分前抽出圆盘"},
    "phase_codex": {"en": "laying the codex", "zh": "布置秘密法典"},
    "phase_split": {"en": "splitting the hands", "zh": "分牌"},
    "phase_choose": {"en": "choosing piles", "zh": "选择牌堆"},
    "phase_assign": {"en": "laying cards under the colours", "zh": "分配卡片给颜色"},
    "phase_wager": {"en": "wagers", "zh": "下注"},
    "phase_shield": {"en": "codex shields", "zh": "选取法典盾徽"},
    "phase_mercy": {"en": "mercy swaps", "zh": "仁慈交换"},
    "phase_draft": {"en": "draft", "zh": "选牌"},
    "draft": {"en": "The draft as the table saw it", "zh": "轮抽全貌"},
    "dealt": {"en": "Dealt", "zh": "发到的牌"},
    "draft_caption": {
        "en": "Each cell: the card kept ‖ the cards passed on. ⊘ a hate-draft: the card was "
        "worth more to the seat it passes to than to the picker, who held a card worth more to "
        "itself (the greedy bot's measure: the points a card can still win on its best track). "
        "↺ cards that went round the whole table unpicked. This round passes:",
        "zh": "每格：留下的牌 ‖ 传出的牌。⊘ 表示“卡牌”（抢牌）：这张牌对下家比对自己更有价值，"
        "而自己手里本有对自己更有价值的牌（按贪心机器人的估值：一张牌在其最佳轨道上还能赢得的分数）。"
        "↺ 表示绕桌一圈都没人选的牌。本回合传牌方向：",
    },
    "worth_own": {"en": "Worth to the picker", "zh": "对选牌者的价值"},
    "worth_next": {"en": "Worth to the next seat", "zh": "对下家的价值"},
    "passed_to": {"en": "Passed to", "zh": "传给"},
    "best_own": {"en": "Picker's best card", "zh": "选牌者最好的牌"},
    "hate_drafts": {"en": "Hate-drafts", "zh": "抢牌（卡牌）"},
    "hate_find": {
        "en": "Find them in the latest {latest} matches (replays each, a second or two)",
        "zh": "在最近 {latest} 局中查找（逐局重放，约需一两秒）",
    },
    "hate_caption": {
        "en": "From the draft of the latest {matches} matches under these filters (at most "
        "{latest}), each pick valued by the greedy bot. A seat hate-drafts often when a tenth "
        "of its picks or more were hate-drafts; fair share: what a seat would win by chance.",
        "zh": "取自这些筛选条件下最近 {matches} 局（最多 {latest} 局）的轮抽，"
        "每次选牌按贪心机器人估值。若某座位至少十分之一的选牌是抢牌，则算“经常抢牌”；公平份额：随机情况下一个座位的胜率。",
    },
    "often": {"en": "often", "zh": "经常"},
    "rarely": {"en": "rarely or never", "zh": "很少或从不"},
    "mean_pick_position": {"en": "Mean pick position", "zh": "平均选牌顺位"},
    "picks": {"en": "Picks", "zh": "被选次数"},
    "plays": {"en": "Plays", "zh": "打出次数"},
    "picks_caption": {
        "en": "Pick position: 1 = the first card a seat takes in a round. Early pick rate: "
        "share of picks made at position 1 or 2.",
        "zh": "选牌顺位：1 = 某座位在一轮中拿的第一张牌。早选率：在第 1 或第 2 顺位被选的比例。",
    },
}
