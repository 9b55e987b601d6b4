"""Labels in English and Chinese. `t(key)` gives the label in the language chosen in the
sidebar; a key with no entry shows as itself."""

from __future__ import annotations

import functools

import streamlit as st

from replay.registry import GAMES

LANGUAGES = {"en": "English", "zh": "中文"}

LABELS: dict[str, dict[str, str]] = {
    # pages
    "viewer": {"en": "Match viewer", "zh": "对局回放"},
    "sources": {"en": "Scoring sources", "zh": "得分来源"},
    "tracks": {"en": "Track races", "zh": "轨道竞赛"},
    "win_rates": {"en": "Win rates", "zh": "胜率"},
    "balance": {"en": "Balance", "zh": "平衡性"},
    "upload": {"en": "Upload logs", "zh": "上传记录"},
    "what_if": {"en": "What if", "zh": "规则假设"},
    "record": {"en": "Record a match", "zh": "记录对局"},
    "record_link": {
        "en": "Record a match at the table, move by move",
        "zh": "在牌桌上逐步记录一局对局",
    },
    "rec_strict": {"en": "Each player taps their own moves", "zh": "每位玩家自己点选"},
    "rec_strict_help": {
        "en": "A move made face up (a card played) is then entered by its player too, the "
        "device passed to them, so the buttons never show anyone's hand. Off: the scribe "
        "taps it, and the buttons list what that player could play.",
        "zh": "明面上的行动（打出的牌）也交给该玩家自己输入，按钮不会显示任何人的手牌。"
        "关闭时由记录者点选，按钮会列出该玩家可出的牌。",
    },
    "rec_masked": {
        "en": "A seat with a single entry possible (a last card) is shown without what it "
        "is: its tap enters it, unseen.",
        "zh": "某位玩家只有一种可能的录入（如最后一张牌）时，按钮只写玩家和动作，"
        "不写内容：点一下即录入。",
    },
    "rec_reveals": {
        "en": "These buttons show what {player} could play: keep the screen from the others.",
        "zh": "这些按钮显示 {player} 可出的内容：请勿让其他人看到屏幕。",
    },
    "rec_resume": {"en": "Matches being recorded", "zh": "正在记录的对局"},
    "rec_entries": {"en": "{n} entries", "zh": "{n} 条记录"},
    "rec_new": {"en": "A new match", "zh": "新对局"},
    "rec_variant": {"en": "Variant", "zh": "变体"},
    "rec_variant_seated": {
        "en": "as the number of players gives it",
        "zh": "按玩家人数而定",
    },
    "rec_players": {"en": "Players", "zh": "玩家人数"},
    "rec_seat": {"en": "Seat", "zh": "座位"},
    "rec_begin": {"en": "Begin", "zh": "开始"},
    "rec_log": {"en": "Entered so far", "zh": "已记录"},
    "rec_unchecked": {"en": "(waits: an earlier entry changed)", "zh": "（待定：之前的记录已改）"},
    "rec_fix": {"en": "Correct an entry", "zh": "更正一条记录"},
    "rec_which": {"en": "Entry", "zh": "记录"},
    "rec_change": {"en": "Change it", "zh": "修改"},
    "rec_insert": {"en": "Insert one before it", "zh": "在其前插入"},
    "rec_remove": {"en": "Remove it", "zh": "删除"},
    "rec_cut": {"en": "Remove it and all after", "zh": "删除它及之后全部"},
    "rec_gone": {
        "en": "This match is no longer being recorded: it was saved or let go.",
        "zh": "此对局已不在记录中：已保存或已放弃。",
    },
    "rec_changing": {
        "en": "Changing entry {n}: choose what it should be.",
        "zh": "正在修改第 {n} 条记录：请选择正确的内容。",
    },
    "rec_inserting": {
        "en": "Inserting an entry before entry {n}: choose it.",
        "zh": "正在第 {n} 条记录前插入：请选择。",
    },
    "rec_cancel": {"en": "Cancel", "zh": "取消"},
    "rec_refused_draw": {
        "en": "These cards cannot all have been dealt here ({rule}): enter them again.",
        "zh": "这些牌不可能全部在此发出（{rule}）：请重新输入。",
    },
    "rec_broken": {
        "en": "The correction breaks {n} of the entries after it (each checked as if the "
        "broken ones before it were gone). Nothing is lost meanwhile.",
        "zh": "这次更正使其后 {n} 条记录不再合法（逐条检查，之前不合法的略过）。"
        "在此期间不会丢失任何记录。",
    },
    "rec_breaks": {"en": "breaks {n} later", "zh": "使其后 {n} 条不合法"},
    "rec_mend": {"en": "Mend entry {n}: {entry}", "zh": "修补第 {n} 条：{entry}"},
    "rec_mend_all": {
        "en": "Mend every one that can be, the same way",
        "zh": "以同样方式修补所有能修补的",
    },
    "rec_mended": {
        "en": "Entries mended: {n}.",
        "zh": "已修补 {n} 条记录。",
    },
    "rec_drop_broken": {
        "en": "Remove the {n} broken entries",
        "zh": "删除这 {n} 条不合法的记录",
    },
    "rec_cut_n": {
        "en": "Remove it and all after it ({n} in all)",
        "zh": "删除它及之后全部（{n} 条）",
    },
    "rec_remove_costs": {
        "en": "Removing entry {n} would break {k} of the entries after it.",
        "zh": "删除第 {n} 条会使其后 {k} 条记录不合法。",
    },
    "rec_remove_free": {
        "en": "Removing entry {n} breaks none of the entries after it.",
        "zh": "删除第 {n} 条不会使其后的记录不合法。",
    },
    "rec_problem": {
        "en": "Entry {n} is no longer legal after the correction ({rule}):",
        "zh": "更正后第 {n} 条记录不再合法（{rule}）：",
    },
    "rec_pass": {"en": "Pass the device to {player}", "zh": "请把设备交给 {player}"},
    "rec_pass_help": {
        "en": "What comes next is theirs alone to see. The screen blanks again once they "
        "have chosen.",
        "zh": "接下来的内容只有该玩家能看。选择之后屏幕会再次隐藏。",
    },
    "rec_take": {"en": "I am {player}: show me", "zh": "我是 {player}：显示"},
    "rec_private": {
        "en": "Only {player} should see this screen.",
        "zh": "此屏幕只应由 {player} 查看。",
    },
    "rec_drawn": {"en": "drawn so far: {cards}", "zh": "已抽：{cards}"},
    "rec_next": {"en": "What happens next?", "zh": "接下来发生什么？"},
    "rec_back": {"en": "Back", "zh": "返回"},
    "rec_end": {"en": "The match ends here", "zh": "对局在此结束"},
    "rec_over": {"en": "The match is over: {scores}.", "zh": "对局结束：{scores}。"},
    "rec_save": {"en": "Save the match", "zh": "保存对局"},
    "rec_saved": {"en": "The match is saved.", "zh": "对局已保存。"},
    "rec_open": {"en": "Open it in the viewer", "zh": "在回放中打开"},
    # words more than one game uses (every game's own are beside its board: dashboards.boards)
    "turn": {"en": "turn", "zh": "行动"},
    "setup": {"en": "setup", "zh": "准备"},
    "recruit": {"en": "recruit", "zh": "招募"},
    "phase_recruit": {"en": "recruit", "zh": "招募骑士"},
    "phase_pass": {"en": "pass", "zh": "跳过"},
    "items": {"en": "Items", "zh": "物品"},
    "item": {"en": "Items", "zh": "物品"},
    "components": {"en": "Components taken", "zh": "组件使用"},
    "components_caption": {
        "en": "Each card, tile, homework or square a seat took (by the event that took it): "
        "how often, from which round on average, and the win rate of the seats that took "
        "it. The chart shows the 20 best among those taken by at least 20 seats.",
        "zh": "各座位拿取的每张卡牌、板块、作业或格子（按拿取它的事件）："
        "次数、平均首次回合，以及拿取它的座位的胜率。"
        "图表显示至少被 20 个座位拿取的组件中胜率最高的 20 个。",
    },
    # common words
    "language": {"en": "Language", "zh": "语言"},
    "game": {"en": "Game", "zh": "游戏"},
    "variant": {"en": "Variant", "zh": "变体"},
    "ruleset": {"en": "Rule set", "zh": "规则集"},
    "ruleset_of_game": {"en": "{game} {ruleset}", "zh": "{game}{ruleset}"},
    "players": {"en": "Players", "zh": "人数"},  # a count of players
    "player_names": {"en": "Players", "zh": "玩家"},  # their names
    "player": {"en": "Player", "zh": "玩家"},
    "bot": {"en": "Bot", "zh": "机器人"},
    "seat": {"en": "Seat (turn order)", "zh": "座位（行动顺序）"},
    "start_player": {"en": "Start player", "zh": "起始玩家"},
    "matches": {"en": "Matches", "zh": "对局数"},
    "n_matches": {"en": "{n} matches", "zh": "{n} 局"},
    "as_of": {"en": "Warehouse version", "zh": "数据版本"},
    "as_of_latest": {"en": "Latest", "zh": "最新"},
    "as_of_help": {
        "en": "Every page reads the warehouse as it stood at this version, and the address keeps "
        "it: a figure quoted from a link reads the same after more matches arrive. Each "
        "version says the matches it holds and what made it; an experiment's versions in a row "
        "(a batch each) are one entry, its last.",
        "zh": "所有页面都按此版本读取数据，网址也会记住它："
        "引用链接中的数字在之后新增对局时保持不变。每个版本注明它包含的对局数和产生它的操作；"
        "同一实验连续的版本（每批一个）合为一项，即其中最后一个。",
    },
    # what made a version of the warehouse (dashboards.version_menu)
    "made_ingest": {"en": "ingest of {n} logs", "zh": "导入 {n} 份日志"},
    "made_ingest_one": {"en": "ingest of 1 log", "zh": "导入 1 份日志"},
    "made_ingest_plain": {"en": "ingest", "zh": "导入"},
    "made_upload": {"en": "upload of {n} files", "zh": "上传 {n} 个文件"},
    "made_upload_one": {"en": "upload of 1 file", "zh": "上传 1 个文件"},
    "made_upload_plain": {"en": "upload", "zh": "上传"},
    "made_recording_plain": {"en": "match recorded at the table", "zh": "现场记录的对局"},
    "made_experiment": {"en": "experiment {id}", "zh": "实验 {id}"},
    "made_experiment_run": {
        "en": "experiment {id}: {versions} versions, {added} matches added",
        "zh": "实验 {id}：{versions} 个版本，新增 {added} 局",
    },
    "made_experiment_part": {
        "en": "experiment {id}, its version {i} of {of}",
        "zh": "实验 {id} 的第 {i} 个版本（共 {of} 个）",
    },
    "made_compaction_plain": {"en": "compaction (files merged)", "zh": "压缩（合并文件）"},
    "made_conversion_plain": {
        "en": "converted from the older format",
        "zh": "由旧格式转换",
    },
    "made_unknown": {"en": "origin not recorded", "zh": "来源未记录"},
    "one_match": {"en": "1 match", "zh": "1 局"},
    "origin_experiments": {"en": "experiments {n}", "zh": "实验 {n}"},
    "wins": {"en": "Wins", "zh": "胜场"},
    "tie_breaks": {"en": "Won on the tie-break", "zh": "凭平局规则获胜"},
    "seats": {"en": "Seats", "zh": "座位数"},
    "seats_unit": {"en": "seats", "zh": "个座位"},
    "origin": {"en": "Matches from", "zh": "对局来源"},
    "step_beyond": {
        "en": "This match has steps 0 to {last}: there is no step {asked}, so its last is shown.",
        "zh": "本局的步数为 0 到 {last}：没有第 {asked} 步，因此显示最后一步。",
    },
    "no_such_name": {
        "en": "No stored match has a player or bot named {name} (names as the logs spell "
        "them): choose one below.",
        "zh": "已存对局中没有名为 {name} 的玩家或机器人（名字以记录中的写法为准）：请在下方选择。",
    },
    "origin_human": {"en": "People's matches", "zh": "真人对局"},
    "origin_bot": {"en": "Simulations", "zh": "模拟对局"},
    "experiment_matches": {
        "en": "and {n} experiment matches, kept apart (Balance, or choose them in a page's "
        "filters)",
        "zh": "另有 {n} 局实验对局，单独存放（见平衡性页，或在页面筛选中选择）",
    },
    "experiments_all": {"en": "Experiments", "zh": "实验对局"},
    "origin_counts": {
        "en": "people's {human} · simulations {bot}",
        "zh": "真人 {human} · 模拟 {bot}",
    },
    "winner_share_caption": {
        "en": "In each match, each source's share of the points its winners scored (signed: a "
        "penalty is a negative share; the winners of a tie together), then the mean over the "
        "matches (their number beside it, and the mean's 95% interval): the experiment metric "
        "source_share. Mean points are per match, of the winners together.",
        "zh": "每局中各来源占该局胜者得分的份额（带符号：扣分为负份额；并列胜者合计），再对各局取"
        "平均（旁列局数及均值的 95% 区间）：即实验指标 source_share。平均分为每局胜者合计所得。",
    },
    "win_rates_of_seats": {
        "en": "Each rate below is of seats: a match counts once for each seat that can win "
        "(a player with two colours, or a bot seated twice, counts twice), with its 95% "
        "(Wilson) interval.",
        "zh": "以下胜率均按座位计：每局中每个可获胜的座位各计一次（执两色的玩家、坐两个座位的"
        "机器人计两次），附 95%（Wilson）区间。",
    },
    "win_rate": {"en": "Win rate", "zh": "胜率"},
    "interval": {"en": "95% interval", "zh": "95% 置信区间"},
    "interval_low": {"en": "95% low", "zh": "95% 下限"},
    "interval_high": {"en": "95% high", "zh": "95% 上限"},
    # a table with more than one rate, or with a rating beside a rate: whose interval it is
    "win_rate_low": {"en": "Win rate 95% low", "zh": "胜率 95% 下限"},
    "win_rate_high": {"en": "Win rate 95% high", "zh": "胜率 95% 上限"},
    "rating_low": {"en": "Rating 95% low", "zh": "等级分 95% 下限"},
    "rating_high": {"en": "Rating 95% high", "zh": "等级分 95% 上限"},
    "early_pick_rate_low": {"en": "Early pick rate 95% low", "zh": "早选率 95% 下限"},
    "early_pick_rate_high": {"en": "Early pick rate 95% high", "zh": "早选率 95% 上限"},
    "win_rate_when_picked_low": {"en": "Win rate when picked 95% low", "zh": "选取者胜率 95% 下限"},
    "win_rate_when_picked_high": {
        "en": "Win rate when picked 95% high",
        "zh": "选取者胜率 95% 上限",
    },
    "win_rate_when_played_low": {"en": "Win rate when played 95% low", "zh": "打出者胜率 95% 下限"},
    "win_rate_when_played_high": {
        "en": "Win rate when played 95% high",
        "zh": "打出者胜率 95% 上限",
    },
    "dates": {"en": "Played between", "zh": "对局日期"},
    "match": {"en": "Match", "zh": "对局"},
    "catalogue": {"en": "catalogue", "zh": "组件目录"},
    "choose_match": {"en": "Choose one of the matches found", "zh": "从找到的对局中选择"},
    "id_contains": {"en": "Id contains", "zh": "编号包含"},
    "match_id": {"en": "Match id", "zh": "对局编号"},
    "find": {"en": "Find a match", "zh": "查找对局"},
    "step": {"en": "Step", "zh": "步骤"},
    "previous": {"en": "◀ Back", "zh": "◀ 上一步"},
    "next": {"en": "Next ▶", "zh": "下一步 ▶"},
    "jump": {"en": "Jump to", "zh": "跳转到"},
    "round": {"en": "Round", "zh": "回合"},
    "round_setup": {"en": "Setup", "zh": "准备阶段"},
    "phase": {"en": "Phase", "zh": "阶段"},
    "perspective": {"en": "Perspective", "zh": "视角"},
    "everyone": {"en": "Everyone (all hands open)", "zh": "全部（公开所有手牌）"},
    "hidden": {"en": "hidden", "zh": "隐藏"},
    "hidden_count": {"en": "{count} (hidden)", "zh": "{count}（隐藏）"},  # "3 cards (hidden)"
    "deck": {"en": "Deck", "zh": "牌堆"},
    "score": {"en": "Score", "zh": "得分"},
    "total": {"en": "Total", "zh": "总分"},
    "next_expected": {"en": "Next", "zh": "下一步"},
    "keys_help": {
        "en": "The arrow keys ← → step too, and a row of the move log jumps to its step.",
        "zh": "方向键 ← → 也可逐步切换；点击行动记录中的一行可跳到该步。",
    },
    "autoplay": {"en": "Autoplay", "zh": "自动播放"},
    "event_final": {"en": "claim the final result", "zh": "声明最终结果"},
    "said_final": {
        "en": "The match ends; the final scores agree: {scores}",
        "zh": "对局结束，最终得分核对一致：{scores}",
    },
    "event_recruit": {"en": "recruit", "zh": "招募"},
    "event_pass": {"en": "pass", "zh": "跳过"},
    "move_log": {"en": "Move log", "zh": "行动记录"},
    "speed": {"en": "Speed", "zh": "速度"},
    "per_second": {"en": "{n}/s", "zh": "{n} 步/秒"},
    "or": {"en": " or ", "zh": "或"},
    "decided_by": {"en": "({by} decides)", "zh": "（由{by}决定）"},
    "match_starts": {"en": "The match is set up.", "zh": "对局已准备就绪。"},
    "base": {"en": "base game", "zh": "基础版"},
    # the move log in sentences (dashboards.sentences): the words every game shares
    "and": {"en": "and", "zh": "和"},
    "chance": {"en": "Chance", "zh": "随机"},
    "said_event": {"en": "{who}: {what}", "zh": "{who}：{what}"},
    "said_removed": {
        "en": "removes {count} {piece} of {victim}'s at {place}",
        "zh": "移除 {victim} 在 {place} 的 {count} 个{piece}",
    },
    "said_leads": {"en": "{who} leads {track} at {at}", "zh": "{who} 以 {at} 领先{track}"},
    "source": {"en": "Source", "zh": "来源"},
    "points": {"en": "Points", "zh": "分数"},
    "winners": {"en": "Winners", "zh": "胜者"},
    "outcome": {"en": "Seats of", "zh": "座位类别"},
    "yes": {"en": "yes", "zh": "是"},
    "no": {"en": "no", "zh": "否"},
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
    "empty": {
        "en": "No matches yet: ingest some logs (squire ingest PATH) or upload them.",
        "zh": "还没有对局：请导入记录（squire ingest PATH）或上传。",
    },
    "no_complete": {
        "en": "No complete match fits these filters.",
        "zh": "没有符合筛选条件的完整对局。",
    },
    "seat_advantage": {"en": "seat advantage (p < 0.05)", "zh": "存在座位优势 (p < 0.05)"},
    "no_evidence": {"en": "no evidence of a seat advantage", "zh": "没有座位优势的证据"},
    "verdict": {"en": "Verdict", "zh": "结论"},
    # the seat-advantage test's numbers, by their columns' names
    "chi_square": {"en": "chi²", "zh": "卡方值"},
    "dof": {"en": "dof", "zh": "自由度"},
    "p": {"en": "p", "zh": "p 值"},
    "no_match": {"en": "No match with this id.", "zh": "没有这个编号的对局。"},
    "all": {"en": "All", "zh": "全部"},
    "overview": {"en": "Matches in the warehouse", "zh": "仓库中的对局"},
    "latest": {"en": "Latest matches", "zh": "最近的对局"},
    "open_viewer": {"en": "Open in the viewer", "zh": "在回放中打开"},
    # What if (squire rescore)
    "what_if_help": {
        "en": "The stored matches the filters pick, replayed again with these rule numbers "
        "(one `KEY=VALUE` a line). A number that changes scoring only re-scores every match "
        "exactly; one that changes play may make a match differ, and only a bot's finish "
        "(an estimate) gives it a result.",
        "zh": "按筛选条件选出的已存对局，用这些规则数值（每行一个 `KEY=VALUE`）重新回放。"
        "只影响计分的数值会精确地重算每一局；影响玩法的数值可能使对局在某一步出现分歧，只有机器人接着下完"
        "（估计值）才给出结果。",
    },
    "changes": {"en": "Changed rule numbers", "zh": "修改的规则数值"},
    "finish_with": {"en": "Finish differing matches with", "zh": "出现分歧的对局由谁下完"},
    "no_bot": {"en": "no bot (leave them out)", "zh": "不使用机器人（不计入）"},
    "rescore": {"en": "Re-score", "zh": "重新计分"},
    "rescoring": {"en": "Re-scoring the stored matches…", "zh": "正在重新计分…"},
    "ruleset_numbers": {"en": "The rule set's numbers", "zh": "规则集的数值"},
    "number": {"en": "Number", "zh": "数值名"},
    "standard": {"en": "Standard", "zh": "标准值"},
    "changes_scoring_only": {"en": "Scoring only", "zh": "仅影响计分"},
    "scoring_only": {"en": "changes scoring only", "zh": "仅影响计分"},
    "changes_play": {"en": "changes play", "zh": "影响玩法"},
    "no_change": {"en": "no change", "zh": "未修改"},
    "exact": {"en": "Exact", "zh": "精确"},
    "changed_winner": {"en": "Winner changes", "zh": "胜者改变"},
    "estimated": {"en": "Estimated", "zh": "估计"},
    "differ_unfinished": {
        "en": "{n} matches differ under these rules and are left out: choose a bot to finish them.",
        "zh": "{n} 局在这些规则下出现分歧，未计入：选择一个机器人来下完它们。",
    },
    "cannot_play": {
        "en": "{n} matches cannot be set up under these rules (their table, deck or map does not "
        "allow them) and are left out.",
        "zh": "{n} 局在这些规则下无法开局（其人数、牌堆或地图不允许），未计入。",
    },
    "rank_moves": {"en": "How ranks move", "zh": "名次变化"},
    "every_match": {"en": "Every match", "zh": "全部对局"},
    "experiments": {"en": "Experiments", "zh": "实验"},
    "what_if_experiment": {"en": "And in new matches?", "zh": "在新的对局中呢？"},
    "what_if_experiment_help": {
        "en": "The same change tried on paired simulated matches (the standard rules against "
        "them, the same deals on both sides): the difference of the metric with its 95% "
        "interval. Here a small run; the command below runs it until it is as precise as "
        "asked, and stores it.",
        "zh": "用成对的模拟对局检验同样的修改（标准规则对比修改后的规则，双方发牌相同）："
        "给出指标的差值及其 95% 置信区间。这里只是小规模试算；"
        "下面的命令会一直运行到所需的精度，并保存结果。",
    },
    "metric": {"en": "Metric", "zh": "指标"},
    "most_matches": {"en": "Matches an arm, at most", "zh": "每组最多对局数"},
    "run_experiment": {"en": "Run the experiment", "zh": "运行实验"},
    "playing": {"en": "Playing the pairs…", "zh": "正在进行成对对局…"},
    "difference": {"en": "With the change − without", "zh": "修改后 − 修改前"},
    "variance_saved": {"en": "Variance the pairing saved", "zh": "配对减少的方差"},
    "experiment": {"en": "Experiment", "zh": "实验"},
    "winners_before": {"en": "Winners before", "zh": "原胜者"},
    "winners_after": {"en": "Winners after", "zh": "新胜者"},
    "scores_before": {"en": "Scores before", "zh": "原得分"},
    "scores_after": {"en": "Scores after", "zh": "新得分"},
    "differs_at": {"en": "Differs at event", "zh": "分歧于事件"},
    "before": {"en": "Before", "zh": "之前"},
    "after": {"en": "After", "zh": "之后"},
    "change": {"en": "Change", "zh": "变化"},
    "places": {"en": "Places moved", "zh": "名次变动"},
    "phase_play": {"en": "play", "zh": "出牌"},
    "phase_bonus": {"en": "courage bonuses", "zh": "勇气奖励"},
    "phase_final": {"en": "final claim", "zh": "终局记录"},
    "phase_over": {"en": "game over", "zh": "游戏结束"},
    "phase_setup": {"en": "setup", "zh": "准备"},
    "phase_king": {"en": "king's cards", "zh": "国王卡"},
    "phase_actions": {"en": "actions", "zh": "行动"},
    "start": {"en": "start", "zh": "开始"},
    "neutral": {"en": "neutral seat", "zh": "中立玩家"},
    "pick": {"en": "Pick", "zh": "选牌"},
    "hate_rate": {"en": "Hate-draft rate", "zh": "抢牌率"},
    "fair_share": {"en": "Fair share", "zh": "公平份额"},
    "turning_points": {"en": "Turning points", "zh": "转折点"},
    # ratings and a player's page
    "player_page": {"en": "Player", "zh": "玩家主页"},
    "ratings": {"en": "Ratings", "zh": "等级分"},
    "ratings_all": {
        "en": "These ratings are over all the game's matches: the filters leave more than "
        "{most} matches, too many to rate again while the page waits.",
        "zh": "这些等级分基于该游戏的全部对局：筛选后仍超过 {most} 局，无法在页面等待时重新计算。",
    },
    "name": {"en": "Name", "zh": "名称"},
    "rating": {"en": "Rating", "zh": "等级分"},
    "provisional": {"en": "Provisional", "zh": "暂定"},
    "page": {"en": "Page", "zh": "主页"},
    "open_page": {"en": "open", "zh": "打开"},
    "open": {"en": "Viewer", "zh": "回放"},
    "open_match": {"en": "open", "zh": "打开"},
    "choose_player": {
        "en": "Choose a player or a bot (a seat played by a bot counts as the bot's).",
        "zh": "选择一位玩家或机器人（机器人所坐的座位算作机器人）。",
    },
    "not_rated": {"en": "Not rated yet: no complete match.", "zh": "尚无等级分：没有完整的对局。"},
    "results_by_seat": {
        "en": "Results by game, player count and seat",
        "zh": "按游戏、人数和座位的战绩",
    },
    "sources_vs_winners": {
        "en": "Where the points come from, beside the winners' average",
        "zh": "得分来源，与胜者平均值对比",
    },
    "taken_most": {"en": "What it takes most", "zh": "最常拿取的组件"},
    "opponents": {"en": "Most frequent opponents", "zh": "最常遇到的对手"},
    "matches_played": {"en": "Matches played", "zh": "参加的对局"},
    "winners_mean": {"en": "Winners' mean", "zh": "胜者平均"},
    "seat_name": {"en": "Seat's name", "zh": "座位名"},
    "rank": {"en": "Rank", "zh": "名次"},
    "opponent": {"en": "Opponent", "zh": "对手"},
    "ahead": {"en": "Finished ahead", "zh": "名次领先"},
    "behind": {"en": "Finished behind", "zh": "名次落后"},
    "level": {"en": "Level", "zh": "并列"},
    "played_at": {"en": "Played", "zh": "对局时间"},
    "chances": {"en": "Who was winning", "zh": "谁在领先"},
    "score_by_source": {"en": "Final scores by source", "zh": "按来源的最终得分"},
    "download_html": {"en": "Download this match (HTML)", "zh": "下载本局（HTML）"},
    "chances_help": {
        "en": "Each seat's estimated chance to win after every step; click to go there.",
        "zh": "每一步之后各座位的预计胜率；点击即可跳到该步。",
    },
    "analysis": {"en": "Move analysis", "zh": "着法分析"},
    "analyse_button": {"en": "Analyse the moves", "zh": "分析着法"},
    "analyse_help": {
        "en": "Judges every decision that had a choice from what its seat could see: {samples} "
        "paired playouts a move by {policy} bots{cut}. On two cores it takes from a quarter "
        "of a minute to four minutes, by game; the analysis is kept with the match.",
        "zh": "从做决定的座位所见，评判每个有选择的决定：每个着法 {samples} 次配对推演，"
        "由 {policy} 机器人走完{cut}。双核上需时约十五秒至约四分钟，视游戏而定；"
        "分析结果随对局保存。",
    },
    "analysing": {"en": "Analysing the moves…", "zh": "正在分析着法…"},
    "cut_playouts": {
        "en": " to the round's end, where the estimate of the chances scores them",
        "zh": "至本轮结束，再由胜率估计打分",
    },
    "cut_playouts_rounds": {
        "en": " through the ends of {rounds} rounds, where the estimate of the chances scores them",
        "zh": "至其后第 {rounds} 轮结束，再由胜率估计打分",
    },
    "analysing_progress": {
        "en": "Analysing: {done} of {total} decisions",
        "zh": "分析中：已评判 {done} / {total} 个决定",
    },
    "analysis_busy": {
        "en": "Another analysis is running on this warehouse; try again when it ends.",
        "zh": "此数据仓库上另有分析正在进行；请在其结束后再试。",
    },
    "analysis_caption": {
        "en": "{judged} decisions with a choice judged, {samples} paired playouts a move "
        "({policy} bots{cut}), in {seconds} s. A move is flagged only when the whole 95% "
        "interval of the win chance it gave up clears 5 (inaccuracy ?!), 10 (mistake ?) or "
        "15 points (blunder ??). Accuracy: 100 less the mean points a seat's decisions gave "
        "up. By chance and by choices: the points of win chance, from the seat's chance at the "
        "start to its result, that the deals and draws moved and that the decisions moved "
        "(the ones flagged; each seat gains a share of what the others give up).",
        "zh": "评判了 {judged} 个有选择的决定，每个着法 {samples} 次配对推演"
        "（{policy} 机器人{cut}），用时 {seconds} 秒。只有当放弃的胜率的 95% 区间"
        "整体超过 5 分（失准 ?!）、10 分（错着 ?）或 15 分（败着 ??）时才会标记。"
        "准确度：100 减去该座位决定平均放弃的分数。运气与决定：从开局时的胜率到最终结果之间，"
        "发牌抽牌带来的胜率分数和决定带来的分数（只计被标记的损失；对手放弃的分数由其余座位均分）。",
    },
    "move_verdict": {
        "en": "{label} {mark}: gave up {loss} points of win chance (95%: {low} to {high})",
        "zh": "{label} {mark}：放弃了 {loss} 分胜率（95%：{low} 至 {high}）",
    },
    "better_move": {"en": "Better", "zh": "更好的着法"},
    "label_inaccuracy": {"en": "Inaccuracy", "zh": "失准"},
    "label_mistake": {"en": "Mistake", "zh": "错着"},
    "label_blunder": {"en": "Blunder", "zh": "败着"},
    "label_inaccuracy_count": {"en": "Inaccuracies ?!", "zh": "失准 ?!"},
    "label_mistake_count": {"en": "Mistakes ?", "zh": "错着 ?"},
    "label_blunder_count": {"en": "Blunders ??", "zh": "败着 ??"},
    "decisions_judged": {"en": "Decisions judged", "zh": "评判的决定"},
    "accuracy": {"en": "Accuracy (%)", "zh": "准确度（%）"},
    "by_chance": {"en": "By chance (points)", "zh": "运气（分）"},
    "by_choices": {"en": "By choices (points)", "zh": "决定（分）"},
    "chance_share": {"en": "Chance's share (%)", "zh": "运气占比（%）"},
    "flagged_moves": {"en": "Flagged moves", "zh": "被标记的着法"},
    "no_flagged": {
        "en": "No decision gave up enough win chance to be flagged.",
        "zh": "没有决定放弃足够多的胜率而被标记。",
    },
    "game_over": {"en": "The game is over.", "zh": "游戏结束。"},
    "no_events": {
        "en": "This log holds its header and no events: the match as it was set up.",
        "zh": "这份记录只有表头，没有事件：显示的是对局开始时的样子。",
    },
    "log_stops": {
        "en": "The log stops before the game ends, after step {last}.",
        "zh": "记录在游戏结束前中断，止于第 {last} 步。",
    },
    # table columns, as the warehouse names them (downloads keep these names)
    "action": {"en": "Action", "zh": "行动"},
    "agent": {"en": "Bot", "zh": "机器人"},
    "early_pick_rate": {"en": "Early pick rate", "zh": "早选率"},
    "low": {"en": "Lowest", "zh": "最低"},
    "q1": {"en": "Lower quartile", "zh": "下四分位数"},
    "median": {"en": "Median", "zh": "中位数"},
    "q3": {"en": "Upper quartile", "zh": "上四分位数"},
    "high": {"en": "Highest", "zh": "最高"},
    "lead_changes_per_match": {"en": "Lead changes per match", "zh": "每局领先易手次数"},
    "mean_first_round": {"en": "Mean first round", "zh": "平均首次轮次"},
    "mean_points": {"en": "Mean points", "zh": "平均得分"},
    "mean_progress": {"en": "Mean progress", "zh": "平均进度"},
    "mean_score": {"en": "Mean score", "zh": "平均总分"},
    "player_count": {"en": "Players", "zh": "人数"},
    "ruleset_key": {"en": "Rule set", "zh": "规则集"},
    "taken": {"en": "Taken", "zh": "获取次数"},
    "track": {"en": "Track", "zh": "轨道"},
    "type": {"en": "Type", "zh": "类型"},
    "value": {"en": "Value", "zh": "数值"},
    "win_rate_of_takers": {"en": "Win rate of takers", "zh": "获取者胜率"},
    "win_rate_when_picked": {"en": "Win rate when picked", "zh": "选取者胜率"},
    "win_rate_when_played": {"en": "Win rate when played", "zh": "打出者胜率"},
    "winner_leads_share": {"en": "Leader went on to win", "zh": "领先者最终获胜比例"},
    "leader_wins": {"en": "Leader won", "zh": "领先者获胜局数"},
    "game_id": {"en": "Match id", "zh": "对局编号"},
    "complete": {"en": "Complete", "zh": "完整"},
    "played": {"en": "Played", "zh": "对局时间"},
    "file": {"en": "File", "zh": "文件"},
    "ingest": {"en": "Ingest", "zh": "导入"},
    "ingesting": {"en": "Replaying and ingesting…", "zh": "正在回放并导入…"},
    "upload_limits": {
        "en": "At most {files} files and {total} at a time, {each} a file (gzip included); "
        "for more, use `squire ingest FOLDER`.",
        "zh": "每次最多 {files} 个文件、共 {total}，每个文件最多 {each}（含 gzip）；"
        "更多请用 `squire ingest FOLDER`。",
    },
    "upload_summary": {
        "en": "{logs} logs: {ingested} ingested, {present} already present, {conflicts} "
        "conflicts, {rejects} rejected",
        "zh": "{logs} 份记录：导入 {ingested}，已存在 {present}，冲突 {conflicts}，拒绝 {rejects}",
    },
    "upload_conflict": {
        "en": "These files hold a game_id already stored from a different log; the stored "
        "matches are kept:",
        "zh": "以下文件的 game_id 已由另一份记录存入；保留已存的对局：",
    },
    "upload_stopped": {
        "en": "An upload of {files} files started at {started} UTC was cut short when the "
        "server stopped: {left} of its files were neither stored nor rejected. Ingest the "
        "upload again (the matches it had stored come back as already present), or let it "
        "go and send those files again later.",
        "zh": "{started} UTC 开始的一次上传（{files} 个文件）因服务器停止而中断：其中 {left} "
        "个文件既未存入也未拒绝。可再次导入这次上传（已存入的对局会显示为已存在），或放弃它、"
        "稍后重新上传这些文件。",
    },
    "upload_resume": {"en": "Ingest it again", "zh": "再次导入"},
    "upload_discard": {"en": "Let it go", "zh": "放弃"},
    "upload_unprocessed": {
        "en": "{count} files were not processed (neither stored nor rejected): send them again.",
        "zh": "{count} 个文件未处理（既未存入也未拒绝）：请重新上传。",
    },
    "line": {"en": "Line", "zh": "行"},
    "rule": {"en": "Rule", "zh": "规则"},
    "message": {"en": "Message", "zh": "说明"},
    "kind": {"en": "Kind", "zh": "类型"},
    "event": {"en": "Event", "zh": "事件"},
    # captions
    "leaders_caption": {
        "en": "The leader of a track at a round's end, as the game's rules rank it there (the "
        "marker furthest on; where markers stack on a square, the one on top). Share: how "
        "often that leader went on to win the match (the bars: its 95% interval).",
        "zh": "轮末轨道的领先者，按该游戏规则在轮末的排名（走得最远的标记；"
        "同格叠放时在上者）。比例：该领先者最终赢下对局的频率（误差线：其 95% 区间）。",
    },
    "decisive_caption": {
        "en": "How often the winner changes when the source is left out of every total, of "
        "how many matches, with its 95% (Wilson) interval.",
        "zh": "把该来源从每人的总分中去掉后，胜者改变的频率，附对局数及 95%（Wilson）区间。",
    },
    "means_by_caption": {
        "en": "Each mean of the seats it counts: a source that only some rule sets score (a "
        "variant board's) is averaged over the seats played under those.",
        "zh": "每个平均值都附其座位数：只有部分规则集计分的来源（如变体图板的来源）"
        "只对这些规则集下的座位取平均。",
    },
    "rates_caption": {
        "en": "Each rate with its n (seats, matches, picks or plays, as its column says) and "
        "its 95% (Wilson) interval.",
        "zh": "每个比率都附其样本数（座位、对局、选取或打出次数，见列名）及 95%（Wilson）区间。",
    },
    "sides_caption": {
        "en": "Each side: its bots' win rates of seats with their 95% (Wilson) interval, and "
        "its winners' sources (their mean share with its 95% interval, as above).",
        "zh": "每一方：其机器人按座位计的胜率及 95%（Wilson）区间，以及其胜者的得分来源"
        "（平均占比及其 95% 区间，同上）。",
    },
    "leaders_by_round_caption": {
        "en": "Round by round: of the matches with a leader at that round's end, how many "
        "that leader went on to win, with the 95% (Wilson) interval of the share.",
        "zh": "逐回合：在该回合结束时有领先者的对局中，该领先者最终获胜的局数，附比例的 "
        "95%（Wilson）区间。",
    },
    "lead_changes_caption": {
        "en": "Lead changes per match, of the most matches with a leader at any one round's "
        "end. No interval is shown: the summaries count lead changes round by round, not match "
        "by match, so how much they vary from match to match is not known.",
        "zh": "每局领先易手次数，按在任一回合结束时有领先者的最多对局数计。不附区间："
        "汇总表按回合而非按对局统计领先易手，无法得知其在各局之间的离散程度。",
    },
    "one_ruleset": {
        "en": "Only one rule set in these matches: simulate a change with "
        "`squire simulate … --set key=value` and ingest it to compare.",
        "zh": "这些对局只有一个规则集："
        "用 `squire simulate … --set key=value` 模拟一项改动并导入，即可对比。",
    },
    # ratings and experiments
    "ratings_apart_caption": {
        "en": "Each person's and each bot's skill, estimated from the order they finished in, "
        "opponents and table size counted (Plackett–Luce, openskill): people and bots in tables "
        "of their own, each by rating, highest first, with its 95% interval. A rating is in "
        "skill points: 25 to start, higher is stronger. Hover over a column's name for what it "
        "holds. Narrowing the filters rates again over only the matches they leave.",
        "zh": "根据每局名次估计每位玩家和每个机器人的水平（考虑对手与人数；Plackett–Luce 模型）："
        "真人玩家与机器人分表列出，各按等级分从高到低排列，附 95% 区间。"
        "等级分以水平分计：起始为 25，越高越强。将鼠标移到列名上可查看该列的含义。"
        "收窄筛选条件时，只用剩下的对局重新计算。",
    },
    "rating_not_win_rate": {
        "en": "A rating is not a win rate: it reads every seat's place, not only the wins, "
        "weighs each result by the ratings of those it was against, and follows the matches in "
        "the order they were played, so the best win rate can stand below a higher rating "
        "(docs/ratings.md, “A rating and a win rate”).",
        "zh": "等级分不等于胜率：它计入每个座位的名次而不只是胜负，按对手的等级分衡量每个结果，"
        "并按对局进行的先后更新，所以胜率最高者的等级分可能排在后面（详见 docs/ratings.md）。",
    },
    "rated_people": {"en": "People", "zh": "真人玩家"},
    "rated_bots": {"en": "Bots", "zh": "机器人"},
    "no_rated_people": {
        "en": "No person is rated under these filters: none played a complete match here.",
        "zh": "在这些筛选条件下没有已评级的真人玩家：没有他们的完整对局。",
    },
    "no_rated_bots": {
        "en": "No bot is rated under these filters: none played a complete match here.",
        "zh": "在这些筛选条件下没有已评级的机器人：没有它们的完整对局。",
    },
    "help_person_name": {
        "en": "The player's name, as the logs give it.",
        "zh": "玩家的名字，与对局记录中一致。",
    },
    "help_bot_name": {
        "en": "The bot's name: the program that played the seat (a seat a bot played counts "
        "as the bot's, whatever the seat was called).",
        "zh": "机器人的名字：下这个座位的程序"
        "（机器人所下的座位算作该机器人的，不论座位叫什么名字）。",
    },
    "help_rating": {
        "en": "The skill estimate (the model's μ), in skill points: everyone starts at 25; "
        "winners gain and losers lose by how surprising the result was. The table is sorted "
        "by it, highest first.",
        "zh": "水平估计值（模型的 μ），以水平分计：所有人从 25 开始，胜者加分、负者减分，"
        "幅度取决于结果有多出乎意料。表格按此从高到低排列。",
    },
    "help_rating_low": {
        "en": "The low end of the rating's 95% interval: rating − 1.96 × its uncertainty (σ). "
        "Few matches make the interval wide.",
        "zh": "等级分 95% 区间的下限：等级分 − 1.96 × 不确定度（σ）。对局越少，区间越宽。",
    },
    "help_rating_high": {
        "en": "The high end of the rating's 95% interval: rating + 1.96 × its uncertainty (σ).",
        "zh": "等级分 95% 区间的上限：等级分 + 1.96 × 不确定度（σ）。",
    },
    "help_rated_matches": {
        "en": "Complete matches of this game it was rated in (a match with only one seat that "
        "can win rates no one). A match counts once, even where it held several seats.",
        "zh": "参与评级的该游戏完整对局数（只有一个可获胜座位的对局不评级）。"
        "即使占了多个座位，一局也只计一次。",
    },
    "help_win_rate_of_matches": {
        "en": "The share of those matches in which one of its seats won.",
        "zh": "这些对局中其某个座位获胜的比例。",
    },
    "help_win_rate_low": {
        "en": "The low end of the win rate's 95% (Wilson) interval, of those matches.",
        "zh": "胜率 95%（Wilson）区间的下限，按这些对局计。",
    },
    "help_win_rate_high": {
        "en": "The high end of the win rate's 95% (Wilson) interval, of those matches.",
        "zh": "胜率 95%（Wilson）区间的上限，按这些对局计。",
    },
    "help_provisional": {
        "en": "Ticked: fewer than 10 rated matches, so the rating is still settling and its "
        "interval is wide; compare it with care.",
        "zh": "勾选：参与评级的对局少于 10 局，等级分尚未稳定、区间较宽，比较时需谨慎。",
    },
    "help_page": {
        "en": "Its own page: the rating over time, results by seat, opponents and matches.",
        "zh": "其个人主页：等级分走势、按座位的战绩、对手与对局。",
    },
    "help_rating_game": {
        "en": "The game rated: ratings are per game.",
        "zh": "评级的游戏：等级分按游戏分别计算。",
    },
    "help_kind": {
        "en": "Whose rating: a person's, or a bot's of the same name (rated apart).",
        "zh": "谁的等级分：真人玩家的，或同名机器人的（分别评级）。",
    },
    "help_opponent": {
        "en": "A name it met at the table, in matches played (experiments left out).",
        "zh": "同桌遇到过的名字，只计实际对局（不含实验）。",
    },
    "help_opponent_matches": {
        "en": "Complete matches in which both sat at the table.",
        "zh": "双方同桌的完整对局数。",
    },
    "help_ahead": {
        "en": "Of those matches, how many it finished ahead of the opponent (a better rank).",
        "zh": "其中名次领先对手的对局数。",
    },
    "help_behind": {
        "en": "Of those matches, how many it finished behind the opponent (a worse rank).",
        "zh": "其中名次落后于对手的对局数。",
    },
    "help_level": {
        "en": "Of those matches, how many it finished level with the opponent: the same rank, "
        "a tie the game's rules leave standing.",
        "zh": "其中与对手名次并列的对局数：规则未能打破的平局。",
    },
    "people_seats": {"en": "People", "zh": "真人玩家"},
    "played_by": {"en": "Played by", "zh": "操作方"},
    "help_played_by": {
        "en": "A bot by its name; people: every seat no bot played, together.",
        "zh": "机器人按名称；真人玩家：所有非机器人座位合计。",
    },
    "experiments_caption": {
        "en": "Each experiment `squire experiment` stored: what it measured, the metric's mean "
        "in each arm, A − B with its 95% interval (of the paired differences), the matches "
        "played in each arm, and why it stopped. Hover over a column's name for what it holds. "
        "Below, one experiment arm by arm.",
        "zh": "squire 的实验命令保存的每个实验：测量的指标、两组各自的指标均值、A − B 及其 "
        "95% 区间（基于成对差值）、每组的对局数，以及停止的原因。将鼠标移到列名上可查看该列的"
        "含义。下方逐组展示所选的实验。",
    },
    "measured": {"en": "What it measured", "zh": "测量的指标"},
    "rules_a": {"en": "Rules of A", "zh": "A 组规则"},
    "rules_b": {"en": "Rules of B", "zh": "B 组规则"},
    "mean_a": {"en": "Mean of A", "zh": "A 组均值"},
    "mean_b": {"en": "Mean of B", "zh": "B 组均值"},
    "a_minus_b": {"en": "A − B", "zh": "A − B"},
    "a_minus_b_low": {"en": "A − B 95% low", "zh": "A − B 95% 下限"},
    "a_minus_b_high": {"en": "A − B 95% high", "zh": "A − B 95% 上限"},
    "pairs_measured": {"en": "Pairs measured", "zh": "计入的配对数"},
    "stopped": {"en": "Why it stopped", "zh": "停止原因"},
    "help_experiment": {
        "en": "The experiment's id: the same arguments to `squire experiment` give the same id "
        "and the same matches.",
        "zh": "实验编号：实验命令的参数相同，编号和对局也相同。",
    },
    "help_measured": {
        "en": "What the metric is: the number read off every match of both arms and compared.",
        "zh": "该指标的含义：从两组每局中读出并加以比较的数值。",
    },
    "help_metric": {
        "en": "The metric compared, as `squire experiment --metric` names it.",
        "zh": "比较的指标，即实验命令中指定的指标名。",
    },
    "help_rules_a": {
        "en": "Arm A's rule set with its changes (`--a`).",
        "zh": "A 组的规则集及其改动。",
    },
    "help_rules_b": {
        "en": "Arm B's rule set with its changes (`--b`).",
        "zh": "B 组的规则集及其改动。",
    },
    "help_mean_a": {
        "en": "The metric's mean over arm A's matches measured.",
        "zh": "A 组计入对局的指标均值。",
    },
    "help_mean_b": {
        "en": "The metric's mean over arm B's matches measured.",
        "zh": "B 组计入对局的指标均值。",
    },
    "help_a_minus_b": {
        "en": "Arm A's mean minus arm B's: the mean of the pairs' differences (match i of A "
        "against match i of B: the same table, and the same luck where the rules allow). Above "
        "0: A's rules give more of the metric.",
        "zh": "A 组均值减 B 组均值：各配对差值的平均（A 的第 i 局对 B 的第 i 局：座位相同，"
        "规则允许时运气也相同）。大于 0：A 的规则使该指标更高。",
    },
    "help_a_minus_b_low": {
        "en": "The low end of A − B's 95% interval: the mean difference − 1.96 × its standard "
        "error. Above 0 (or a high end below 0): more of a difference than chance makes.",
        "zh": "A − B 95% 区间的下限：平均差值 − 1.96 × 标准误。下限大于 0（或上限小于 0）："
        "差异超出偶然所能造成的。",
    },
    "help_a_minus_b_high": {
        "en": "The high end of A − B's 95% interval: the mean difference + 1.96 × its standard "
        "error.",
        "zh": "A − B 95% 区间的上限：平均差值 + 1.96 × 标准误。",
    },
    "help_experiment_matches": {
        "en": "Matches played in each arm (A and B play as many). For an experiment an older "
        "squire stored: the matches stored of each arm.",
        "zh": "每组的对局数（A、B 两组相同）。旧版 squire 保存的实验：每组已保存的对局数。",
    },
    "help_pairs_measured": {
        "en": "Of those pairs of matches, how many the metric was defined on in both arms (a "
        "card's win rate only where both drafted it): A − B is of these.",
        "zh": "这些配对中两组都能计算该指标的配对数（例如卡牌胜率只在两组都选了该卡时才有）："
        "A − B 基于这些配对。",
    },
    "help_stopped": {
        "en": "The stopping rule that ended it: the 95% interval narrower than the precision "
        "asked (`--precision`), or the most matches allowed played (`--max`); or not finished.",
        "zh": "结束实验的停止规则：95% 区间窄于要求的精度，或已下完允许的最多对局数；或尚未结束。",
    },
    "metric_start_player_win_rate": {
        "en": "the start player's share of the win (1 a win, 1/k in a k-way tie, else 0)",
        "zh": "起始玩家获胜的份额（获胜为 1，k 人并列为 1/k，否则为 0）",
    },
    "metric_seat_win_rate": {
        "en": "seat {n}'s share of the win (seats in the log's order; 1 a win, 1/k in a k-way "
        "tie, else 0)",
        "zh": "第 {n} 个座位获胜的份额（按记录中的座位顺序；获胜为 1，k 人并列为 1/k，否则为 0）",
    },
    "metric_source_share": {
        "en": "the share of the winners' points that came from {source}",
        "zh": "胜者得分中来自{source}的比例",
    },
    "metric_margin": {
        "en": "the winner's lead in points over the best seat that did not win (0 when all tie)",
        "zh": "胜者领先最高未获胜座位的分数（全部并列时为 0）",
    },
    "metric_card_win_rate": {
        "en": "the share of the win taken by the seats that drafted {card}",
        "zh": "选取了 {card} 的座位获胜的份额",
    },
    "not_recorded": {"en": "not recorded", "zh": "未记录"},
    "no_interval": {"en": "none (fewer than 2 pairs measured)", "zh": "无（计入的配对少于 2 个）"},
    "stopped_precision": {
        "en": "precision reached: the 95% interval, {width} wide, is narrower than the "
        "{precision} asked",
        "zh": "达到精度：95% 区间宽 {width}，窄于要求的 {precision}",
    },
    "stopped_max": {
        "en": "budget spent: the {most} matches an arm allowed were played; the 95% interval, "
        "{width} wide, was still not narrower than the {precision} asked",
        "zh": "预算用完：已下完每组允许的 {most} 局；"
        "95% 区间宽 {width}，仍未窄于要求的 {precision}",
    },
    "stopped_unfinished": {
        "en": "not finished: still running, or cut short after {matches} matches an arm",
        "zh": "未结束：仍在运行，或在每组 {matches} 局后中断",
    },
    "experiment_not_recorded": {
        "en": "Stored by an older squire, which kept its matches (A {a}, B {b}) but not what "
        "it measured: its metric, A − B and why it stopped are not recorded.",
        "zh": "由旧版 squire 保存：只保存了对局（A 组 {a} 局，B 组 {b} 局），"
        "未保存测量结果：指标、A − B 与停止原因均未记录。",
    },
    "experiment_no_difference": {
        "en": "Measured: {metric}. No interval: only {pairs} pairs measured; {stopped}.",
        "zh": "测量：{metric}。无区间：计入的配对只有 {pairs} 个；{stopped}。",
    },
    "experiment_found": {
        "en": "Measured: {metric}. A − B = {difference}, 95% interval {low} to {high}, over "
        "{pairs} pairs of {matches} matches an arm; {stopped}.",
        "zh": "测量：{metric}。A − B = {difference}，95% 区间 {low} 至 {high}，"
        "基于每组 {matches} 局中的 {pairs} 个配对；{stopped}。",
    },
}


def language() -> str:
    lang = st.session_state.get("lang", "en")
    return lang if lang in LANGUAGES else "en"


@functools.cache
def every_label() -> dict[str, dict[str, str]]:
    """The shared labels, each game's title under its id, and each game's own words (its
    package's `labels` beside its board), read once at the first label asked for."""
    from dashboards.boards import labels  # each game's words: the boards need `t` to load
    from dashboards.club_labels import CLUB_LABELS

    merged: dict[str, dict[str, str]] = dict(CLUB_LABELS)
    for name, game in GAMES.items():
        merged.update(labels(name))
        merged[name] = dict(game.title)
    return {**merged, **LABELS}


def t(key: str, lang: str | None = None) -> str:
    """The label for `key` in `lang`, or else in the language chosen."""
    entry = every_label().get(key)
    if entry is None:
        return key
    return entry.get(lang or language(), entry["en"])


def phase(name: str) -> str:
    """A game phase (the engine's name for it) in the chosen language; unknown ones as named."""
    key = f"phase_{name}"
    return t(key) if key in every_label() else name
