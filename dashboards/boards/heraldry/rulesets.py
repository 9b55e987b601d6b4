"""Heraldry's rules in words: its rule set, every setting of its ruleset and the words its
settings' values are named by, so that a match played under changed numbers reads
"Heraldry standard, promotion cost: 12". `dashboards.rulesets` reads these."""

from replay.games.heraldry.config import PIECES, TERRAINS, TITLES

LABELS: dict[str, dict[str, str]] = {
    "ruleset:heraldry/standard": {"en": "standard", "zh": "标准规则"},
    "setting:heraldry/min_players": {"en": "fewest players", "zh": "最少玩家数"},
    "setting:heraldry/max_players": {"en": "most players", "zh": "最多玩家数"},
    "setting:heraldry/reserve": {"en": "each player's pieces", "zh": "每位玩家的棋子"},
    "setting:heraldry/tiles_per_player": {"en": "map tiles a player", "zh": "每位玩家的版图块"},
    "setting:heraldry/tile_size": {"en": "hexes a map tile", "zh": "每块版图的六角格数"},
    "setting:heraldry/setup_cities": {"en": "starting cities", "zh": "初始城市数"},
    "setting:heraldry/recruit_max": {"en": "knights a recruit", "zh": "每次招募骑士数"},
    "setting:heraldry/recruit_max_by_lake": {
        "en": "knights a recruit beside a lake",
        "zh": "湖边城市每次招募骑士数",
    },
    "setting:heraldry/move_max_knights": {"en": "steps a move", "zh": "每次移动步数"},
    "setting:heraldry/block_pieces": {
        "en": "pieces that keep knights out",
        "zh": "阻挡骑士进入的棋子数",
    },
    "setting:heraldry/expedition_knights": {
        "en": "knights an expedition",
        "zh": "每次远征骑士数",
    },
    "setting:heraldry/city_points": {"en": "points a city", "zh": "每座城市得分"},
    "setting:heraldry/promotion_cost": {"en": "promotion cost", "zh": "晋升费用"},
    "setting:heraldry/token_promotion": {
        "en": "tokens' worth in a promotion",
        "zh": "晋升时资源价值",
    },
    "setting:heraldry/token_end": {"en": "tokens' worth at the end", "zh": "终局时资源价值"},
    "setting:heraldry/title_points": {"en": "points for each title", "zh": "各爵位得分"},
    "setting:heraldry/map_terrains": {
        "en": "terrain on the simulator's maps",
        "zh": "模拟版图的地形比例",
    },
}

# The strings a setting holds, by the label that names them, field by field ("" for any field):
# terrains, pieces and titles under their own names.
VALUES: dict[str, dict[str, str]] = {"": {name: name for name in (*TERRAINS, *PIECES, *TITLES)}}
