"""Paladins' rules in words: its rule set, every setting of its ruleset, the words its
settings' values are named by, and the catalogue squire ships, so that a match played under
changed numbers reads "Paladins standard, starting silver: 8". `dashboards.rulesets` reads
these."""

from collections.abc import Callable

from replay.games.paladins.words import COLOURS

from .words import gives

# The personal board's actions (PA-20 to PA-28), then the main actions (PA-29).
ACTIONS = (
    *("develop", "recruit", "hunt", "trade", "pray", "scheme"),
    *("commission", "build_wall", "garrison", "absolve", "attack", "convert"),
)


LABELS: dict[str, dict[str, str]] = {
    "ruleset:paladins/standard": {"en": "standard", "zh": "标准规则"},
    "catalogue:paladins/squire-sample/1": {
        "en": "squire's sample cards",
        "zh": "squire 示例卡牌",
    },
    **{
        f"setting:paladins/{field}": {"en": en, "zh": zh}
        for field, en, zh in (
            ("rounds", "rounds", "轮数"),
            ("min_players", "fewest players", "最少玩家数"),
            ("max_players", "most players", "最多玩家数"),
            ("start_silver", "starting silver", "初始银币"),
            ("start_provisions", "starting provisions", "初始补给"),
            ("start_faith", "starting faith", "初始信仰"),
            ("start_strength", "starting strength", "初始武力"),
            ("start_influence", "starting influence", "初始影响力"),
            ("attribute_max", "attribute track's end", "属性轨道上限"),
            ("attribute_vp", "VP of each attribute's position", "各属性位置的胜利分"),
            ("order_rounds", "rounds a king's order comes", "国王命令出现的轮次"),
            ("favour_rounds", "rounds a king's favour comes", "国王恩惠出现的轮次"),
            ("order_vp", "VP of each king's order", "各国王命令的胜利分"),
            ("favour_per_player", "a favour once a round each player", "每位玩家每轮各用一次恩惠"),
            ("tavern_extra", "tavern cards beyond one a player", "酒馆卡多于玩家数的张数"),
            ("tavern_workers", "workers a tavern card", "每张酒馆卡的工人"),
            ("paladin_workers", "workers a paladin", "每位圣骑士的工人"),
            ("paladin_draw", "paladins drawn", "抽取的圣骑士数"),
            ("keep_workers", "workers kept to the next round", "留到下一轮的工人"),
            ("townsfolk_slots", "townsfolk display slots", "市民展示位"),
            ("debt_slots", "townsfolk slots that offer a debt", "可借债的市民展示位"),
            ("outsider_slots", "outsider display slots", "外来者展示位"),
            ("develop_silver", "silver to develop", "发展所需银币"),
            ("workshop_workers", "workers each workshop gives", "各工坊提供的工人"),
            ("workshops_per_action", "workshops a main action", "每个主行动的工坊数"),
            ("main_workers", "workers a main action", "主行动所需工人"),
            ("main_slots", "main actions' worker slots", "主行动的工人位"),
            ("space_slots", "personal board's worker slots", "个人版图的工人位"),
            (
                "hunt_provisions",
                "provisions a hunt, with 1 or 2 workers",
                "狩猎获得补给（1 或 2 名工人）",
            ),
            (
                "trade_silver",
                "silver a trade, with 1 or 2 workers",
                "交易获得银币（1 或 2 名工人）",
            ),
            ("pray_silver", "silver to pray", "祈祷所需银币"),
            ("monk_provisions", "provisions of each monk", "各修士所需补给"),
            ("monk_reveals", "attribute under each monk", "各修士下的属性"),
            ("outpost_provisions", "provisions of each outpost", "各前哨所需补给"),
            ("outpost_reveals", "attribute under each outpost", "各前哨下的属性"),
            ("region_faith", "faith each region needs", "各区域所需信仰"),
            ("region_strength", "strength each region needs", "各区域所需武力"),
            ("square_players", "players the marked squares need", "标记格所需玩家数"),
            ("wall_provisions", "provisions of each wall", "各城墙所需补给"),
            ("wall_influence", "influence each wall needs", "各城墙所需影响力"),
            ("jar_silver", "silver of each jar", "各罐子所需银币"),
            ("jar_influence", "influence each jar needs", "各罐子所需影响力"),
            ("jar_spots", "what each jar spot gives", "各罐子位置的奖励"),
            ("absolve_faith", "faith an absolve gives", "赦罪获得信仰"),
            ("absolve_pardons", "suspicion pardoned an absolve", "每次赦罪免除的嫌疑"),
            (
                "attack_strength_per_silver",
                "strength a silver buys in an attack",
                "攻击时每银币换取的武力",
            ),
            ("convert_silver", "silver of each convert place", "各感化位置所需银币"),
            ("debt_unpaid_vp", "VP of an unpaid debt", "未偿债务的胜利分"),
            ("debt_paid_vp", "VP of a repaid debt", "已偿债务的胜利分"),
            ("suspicion_vp", "VP of a suspicion card", "每张嫌疑卡的胜利分"),
            ("inquisition_min", "suspicion an inquisition punishes", "宗教审判惩罚的嫌疑数"),
            ("inquisition_vp", "VP of an inquisition", "宗教审判的胜利分"),
        )
    },
}

# The strings a setting holds, by the label that names them, field by field ("" for any field):
# workers by colour ("any" where a slot takes any), attributes and actions under their names.
VALUES: dict[str, dict[str, str]] = {
    "": {colour: f"pa_colour_{colour}" for colour in COLOURS}
    | {"any": "pa_slot_any", "faith": "faith", "strength": "strength", "influence": "influence"}
    | {action: f"pa_act_{action}" for action in ACTIONS},
}

# The settings whose strings are in the catalogue's reward grammar ("1faith 1inf"): said as a
# square's reward is.
SPOKEN: dict[str, Callable[[str, str], str]] = {"jar_spots": gives}
