#!/usr/bin/env python3
"""The reflection-journal test set: 120 short readings and 120 typed worries, with close calls.

A reflection-journal app stores short "readings" (a title and 2-3 sentences of advice on a worry); a person
types a worry and the app shows the reading that fits. This writes such a set, deterministically, from the
literals below:

    readings.jsonl  120 readings, 10 per category, 90 English and 30 Chinese (Simplified):
                    {"id", "title", "text", "category", "tags", "language"}
    worries.jsonl   120 worries, 10 per category, 80 English and 40 Chinese, written as people type them:
                    {"id", "query", "category", "relevant" (1-3 readings of the worry's category that fit
                    best), "language", "split" (dev and heldout alternate)}

Some readings use a common word in a sense unrelated to their category on purpose ("knew the material by
heart" in a work reading, "don't lose sleep over a budget" in a money one, "dead tired", "sleep on it",
"break a plate", 为预算失眠, 被老板当众批评 in an anger reading), and many worries share such a word with a
reading of the wrong category, so that keyword matching is misleading (journal-close-calls.py measures it).

    journal_set.py [OUT]        (default scripts/bench/data/journal)
"""
import json
import os
import re
import sys

CATEGORIES = ["sleep", "grief", "relationships", "work", "anxiety", "self-worth", "family", "health", "money",
              "study", "loneliness", "anger"]

# category -> [(key, language, title, text, tags)]
READINGS = {
    "sleep": [
        ("s-awake", "en", "When sleep will not come",
         "Lying awake replaying the day is common after stress. If you have been in bed for twenty minutes, get "
         "up, keep the lights low and read something dull. Go back when your eyelids feel heavy, not when the "
         "clock says you should.", ["insomnia", "bed", "night"]),
        ("s-early", "en", "The 3 a.m. wake-up",
         "Waking in the small hours and being unable to drift off again is one of the most common sleep "
         "complaints. Keep the phone face down, breathe out for longer than you breathe in, and remind yourself "
         "that quiet rest still restores the body.", ["insomnia", "early waking"]),
        ("s-mind", "en", "A racing mind at bedtime",
         "Thoughts speed up when the room goes quiet because nothing else competes for attention. An hour before "
         "bed, write tomorrow's to-do list and one line about what is bothering you, so your mind knows it has "
         "been parked somewhere safe.", ["bedtime", "thoughts", "journaling"]),
        ("s-dreams", "en", "Nightmares that linger",
         "Bad dreams often replay what the day left unfinished. When you wake from one, name three things you "
         "can see in the room, then rewrite the ending on paper in a few lines. Over weeks, rehearsing a kinder "
         "ending can soften a recurring nightmare.", ["dreams", "nightmares"]),
        ("s-shifts", "en", "Shift work and a confused body clock",
         "Working nights or rotating shifts leaves your body guessing what time it is. Keep the bedroom dark and "
         "cool in the daytime, anchor one meal at the same hour every day, and protect a core block of rest even "
         "on your days off.", ["shift work", "body clock"]),
        ("s-screens", "en", "Screens in bed",
         "Scrolling in bed trains the brain to treat the pillow as a place for news and messages. Charge your "
         "phone outside the bedroom and keep a paper book by the bed instead; the first nights feel strange, "
         "then easier.", ["phone", "habits", "bedtime"]),
        ("s-naps", "en", "Napping without ruining the night",
         "A short nap before mid-afternoon can lift a heavy day, but long or late naps steal the pressure that "
         "helps you drop off at night. Set an alarm for twenty minutes and step outside into daylight "
         "afterwards.", ["naps", "daytime drowsiness"]),
        ("s-zh-awake", "zh", "失眠的夜晚",
         "躺在床上翻来覆去睡不着时，不要强迫自己入睡。起身到另一个房间，开一盏暗灯，做点无聊的事，等困意回来再上床。"
         "床只留给睡眠，身体会慢慢记住。", ["失眠", "夜晚"]),
        ("s-zh-early", "zh", "凌晨醒来之后",
         "凌晨三四点醒来后再也睡不着，是很多人都有的经历。不要看手机上的时间，慢慢地呼气，告诉自己：安静地躺着也是在休息。",
         ["早醒", "失眠"]),
        ("s-zh-mind", "zh", "睡前放不下的念头",
         "睡前脑子停不下来，往往是因为白天的事情没有落地。临睡前一小时，把明天要做的事和心里的担忧写在纸上，"
         "让大脑知道它们有地方安放。", ["睡前", "念头"]),
    ],
    "grief": [
        ("g-first", "en", "The first weeks after a death",
         "In the first weeks after someone dies, grief can feel like fog: forgetting words, losing track of "
         "days, crying in the supermarket. None of this means you are falling apart. Eat something small, let "
         "people help, and expect nothing tidy from yourself.", ["death", "loss", "mourning"]),
        ("g-pet", "en", "Grieving a pet",
         "The loss of an animal who shared your days is real loss, even when others shrug. Their routines were "
         "woven into yours, so the empty bowl and the quiet door hurt. Let yourself mourn them as the companion "
         "they were.", ["pet", "loss"]),
        ("g-anniversary", "en", "When the anniversary comes around",
         "Birthdays and the date someone died can bring grief back with surprising force, even years later. Plan "
         "something gentle for that day: visit a place you shared, light a candle, or tell a story about them "
         "to someone who will listen.", ["anniversary", "remembering"]),
        ("g-unsaid", "en", "Guilt and the things left unsaid",
         "After a loss, the mind replays last conversations and the goodbye we never got to say. Guilt is often "
         "love with nowhere to go. Write the unsaid words in a letter to them; you do not have to send it for it "
         "to matter.", ["guilt", "regret", "goodbye"]),
        ("g-parent", "en", "A heart that aches for a parent",
         "Losing a parent changes the ground beneath you, whatever your age. The heart aches in odd moments, "
         "like reaching for the phone to call them. Keep something of theirs close and let the sadness come in "
         "waves rather than fighting it.", ["parent", "mother", "father"]),
        ("g-before", "en", "Grief that arrives before the death",
         "Watching someone you love decline through a long illness brings grief in advance. You may mourn who "
         "they were while caring for who they are now. Both are allowed, and so is the relief you may feel "
         "later.", ["illness", "dementia", "anticipatory grief"]),
        ("g-friend", "en", "When a friend dies young",
         "The death of a friend your own age shakes your sense of how life is supposed to go. Anger, disbelief "
         "and fear for yourself are all common. Stay close to the people who knew them too; shared memories "
         "carry the weight better than private ones.", ["friend", "sudden loss"]),
        ("g-zh-family", "zh", "失去亲人之后",
         "亲人离开后，很多人会觉得时间停住了，吃饭、睡觉都没有了意义。悲伤没有标准的期限，不必逼自己快点好起来。"
         "允许自己哭，也允许自己偶尔笑。", ["去世", "悲伤"]),
        ("g-zh-pet", "zh", "宠物离开了",
         "陪伴多年的猫狗离开，心里空出一大块。别人说“再养一只就好了”，其实你失去的是一个家人。"
         "给它写几句话，或者留下一张照片，好好道别。", ["宠物", "离开"]),
        ("g-zh-unsaid", "zh", "那些来不及说的话",
         "亲人走后，我们常常后悔有些话没来得及说，最后一面也没能见到。内疚往往是无处安放的爱。"
         "写一封不寄出的信，把想说的都告诉他。", ["遗憾", "内疚"]),
    ],
    "relationships": [
        ("rl-ex", "en", "Reaching out to someone from the past",
         "Old connections pull at us when we feel lonely or nostalgic. Before you text an ex, ask what you hope "
         "will happen, and whether you could live with silence as an answer.", ["ex", "contact"]),
        ("rl-breakup", "en", "After a break-up",
         "The end of a relationship takes away a person and a whole imagined future. Expect the mind to bargain "
         "and replay. Mute their profile, lean on friends, and give the heartbreak time rather than a "
         "deadline.", ["breakup", "heartbreak"]),
        ("rl-argument", "en", "The same argument, again",
         "Couples often fight about the dishes when the real topic is feeling unappreciated. Next time the old "
         "argument starts, name the feeling underneath in one sentence and ask your partner to name theirs.",
         ["conflict", "partner"]),
        ("rl-trust", "en", "Trust after a betrayal",
         "Finding out a partner lied or cheated can shake the ground under everything you shared. You do not "
         "have to decide tonight whether to stay. Notice what you need in order to feel safe, and say it "
         "plainly.", ["cheating", "trust"]),
        ("rl-ghosted", "en", "Being ghosted",
         "When someone stops replying without explanation, the silence invites stories about your worth. Their "
         "disappearing says more about their ability to have hard conversations than about you. Give yourself a "
         "closing line, even if they never do.", ["dating", "ghosting"]),
        ("rl-apart", "en", "Growing apart",
         "Sometimes two people drift without any single fight. If the spark has faded and you feel more like "
         "roommates, start small: one evening a week with phones away and a question you have never asked each "
         "other.", ["long-term", "intimacy"]),
        ("rl-jealous", "en", "Jealousy in a relationship",
         "Jealousy usually points at a fear of being replaced or of not being enough. Before checking their "
         "phone, tell your partner what triggered the feeling and what reassurance would actually help.",
         ["jealousy", "insecurity"]),
        ("rl-distance", "en", "Long distance",
         "Distance makes ordinary moments precious and misunderstandings bigger. Agree on a rhythm of calls "
         "rather than waiting to see who reaches out first, and plan the next visit so there is always a date to "
         "look toward.", ["long distance"]),
        ("rl-zh-breakup", "zh", "分手以后",
         "分手后反复翻看对方的朋友圈，只会让伤口一次次裂开。先取消关注，把回忆收进一个盒子里。心碎需要的是时间，而不是期限。",
         ["分手", "失恋"]),
        ("rl-zh-argument", "zh", "总为同一件事吵架",
         "情侣吵架，表面上是为了家务或迟到，底下往往是“我觉得不被重视”。下次争吵开始时，先说出自己的感受，再问问对方的感受。",
         ["吵架", "伴侣"]),
    ],
    "work": [
        ("w-feedback", "en", "Hard feedback from a manager",
         "Criticism stings most when it touches something we already fear about ourselves. Separate the facts "
         "from the tone, pick one thing to change, and let the rest go.", ["feedback", "boss"]),
        ("w-present", "en", "Before a big presentation",
         "You already know the material by heart; what remains is delivery. Rehearse the first two minutes out "
         "loud, since nerves fade once you are moving, and keep one card with your three main points in your "
         "pocket.", ["presentation", "public speaking"]),
        ("w-burnout", "en", "Running on empty",
         "If you come home dead tired every night and dread Monday from Friday evening on, that is burnout "
         "talking, not weakness. List what drains you and what you could hand off, then bring one concrete "
         "change to your manager.", ["burnout", "overwork"]),
        ("w-email", "en", "Sleep on the email",
         "When a colleague's message makes your face hot, write the reply you want to send, then save it as a "
         "draft and sleep on it. In the morning, keep the facts and cut the adjectives.", ["email", "colleagues"]),
        ("w-credit", "en", "A coworker who takes the credit",
         "It hurts to watch someone present your idea as theirs. Keep short written records of your "
         "contributions, send recap emails after meetings, and say plainly, without heat, that you are happy to "
         "walk everyone through how you built it.", ["credit", "coworker"]),
        ("w-quit", "en", "Thinking about quitting",
         "Wanting to quit is information, not a decision. Write down whether it is the tasks, the people or the "
         "pace that wears you down, and test the smallest change before making the biggest one.",
         ["career", "quitting"]),
        ("w-laidoff", "en", "After being laid off",
         "Losing a job can feel like losing a piece of who you are. Give yourself a few days to be angry and "
         "sad, then set a gentle routine: one application, one conversation and one walk a day.",
         ["layoff", "job search"]),
        ("w-zh-boss", "zh", "被上司批评之后",
         "被领导批评时，先把事实和语气分开。事实部分值得改进，语气部分不必全部收下。挑一件最具体的事去改，其余的放下。",
         ["领导", "批评"]),
        ("w-zh-overtime", "zh", "加班到身心俱疲",
         "每天加班到深夜，周末也在回消息，身体和心都会被掏空。列出哪些事可以交出去，和领导谈一次具体的调整，而不是一直硬撑。",
         ["加班", "倦怠"]),
        ("w-zh-quit", "zh", "想辞职的时候",
         "想辞职是一个信号，不是一个决定。先写下让你疲惫的是工作内容、同事还是节奏，再决定要改变什么，从最小的改变试起。",
         ["辞职", "职业"]),
    ],
    "anxiety": [
        ("a-heart", "en", "When your heart races",
         "A pounding heart before a meeting or a phone call is your body preparing for action, not a sign of "
         "danger. Breathe out slowly for a count of six, press your feet into the floor, and let the wave pass.",
         ["racing heart", "nerves"]),
        ("a-panic", "en", "Riding out a panic attack",
         "A panic attack peaks within minutes and then subsides, even though it feels endless. Name it to "
         "yourself: this is panic, and it will pass. Look around and name five things you can see, then four "
         "you can hear.", ["panic attack"]),
        ("a-whatif", "en", "The what-if spiral",
         "Worry loves questions that start with what if. Write the fear down, then the most likely outcome and "
         "what you would do if the worst came. Seeing the plan on paper usually shrinks the spiral.",
         ["worry", "catastrophizing"]),
        ("a-calls", "en", "Dreading the phone",
         "Many people feel a jolt of fear when the phone rings or a voicemail needs answering. Script your first "
         "sentence, make calls at a fixed time of day, and reward yourself afterwards; avoidance feeds the "
         "fear.", ["phone anxiety", "avoidance"]),
        ("a-social", "en", "Social anxiety at gatherings",
         "Walking into a room full of people can make you feel watched and judged. Most people are busy worrying "
         "about their own impression. Arrive early, while the room is still small, and give yourself one task, "
         "such as asking two people a question.", ["social anxiety", "parties"]),
        ("a-symptoms", "en", "Health worries that won't settle",
         "Searching symptoms online at midnight rarely calms the fear; it feeds it. Set one time a day to note "
         "what you feel, book a check-up if it persists, and otherwise let the worry wait for that appointment.",
         ["health anxiety", "reassurance seeking"]),
        ("a-hum", "en", "A constant low hum of worry",
         "Some days anxiety is not a wave but a background hum: tight shoulders, a clenched jaw, a sense that "
         "something is wrong. Short walks, less caffeine and a fixed worry time of fifteen minutes can lower the "
         "volume.", ["generalized anxiety", "tension"]),
        ("a-zh-heart", "zh", "心跳加速的时候",
         "开会或打电话前心跳加速、手心出汗，这是身体在做准备，并不危险。慢慢呼气，数到六，双脚踩实地面，让这股紧张过去。",
         ["紧张", "心慌"]),
        ("a-zh-panic", "zh", "惊恐发作",
         "惊恐发作时会喘不过气，觉得自己快要死了，但它通常几分钟内达到顶峰，然后慢慢退去。告诉自己：这是惊恐，它会过去。"
         "看看四周，说出五样你能看到的东西。", ["惊恐", "呼吸"]),
        ("a-zh-whatif", "zh", "停不下来的担心",
         "脑子里总是“万一……怎么办”。把担心写下来，再写下最可能的结果，以及最坏情况下你会怎么做。计划写在纸上，担心就会变小。",
         ["担心", "焦虑"]),
    ],
    "self-worth": [
        ("sw-compare", "en", "Comparing yourself online",
         "Scrolling through other people's highlights can make your ordinary life look like failure. You are "
         "comparing your inside to their outside. Unfollow accounts that leave you feeling smaller, and notice "
         "one thing you did well today.", ["comparison", "social media"]),
        ("sw-critic", "en", "The inner critic",
         "The voice that calls you stupid or lazy often learned its lines long ago. Try answering it the way you "
         "would answer a friend who said those things about themselves, with facts and a little warmth.",
         ["inner critic", "self-talk"]),
        ("sw-impostor", "en", "Impostor feelings",
         "Feeling like a fraud who will soon be found out is common among capable people, especially in a new "
         "role. Keep a file of thanks and wins you can reread on doubtful days; evidence beats feelings.",
         ["impostor syndrome", "confidence"]),
        ("sw-body", "en", "Your worth is not your weight",
         "Hating what you see in the mirror can colour a whole day. Your body carries you through your life; it "
         "is not a project to be graded. Try naming one thing it let you do today.", ["body image", "mirror"]),
        ("sw-no", "en", "Saying no without guilt",
         "Every yes to something you resent is a no to something you value. A kind, short refusal is a gift to "
         "both people, and it keeps your word worth something.", ["boundaries", "people-pleasing"]),
        ("sw-mistake", "en", "After a mistake in public",
         "One mistake replays far longer in your own head than in anyone else's. Acknowledge it once, fix what "
         "can be fixed, and ask whether you would judge a friend this harshly for the same slip.",
         ["shame", "mistakes"]),
        ("sw-behind", "en", "Feeling like you're falling behind",
         "Friends announcing engagements, promotions and houses can make you feel late to your own life. There "
         "is no shared timetable. Write down what you want from the next year, in your own words, and measure "
         "yourself against that.", ["comparison", "milestones"]),
        ("sw-praise", "en", "Accepting a compliment",
         "If praise makes you squirm and you rush to explain it away, practise a plain thank you and nothing "
         "else. Letting kindness land is a skill, and it grows with use.", ["compliments", "self-esteem"]),
        ("sw-zh-critic", "zh", "总觉得自己不够好",
         "心里那个说“你不行、你什么都做不好”的声音，往往是很早以前学会的台词。试着像安慰朋友一样回应它：摆出事实，也给自己一点温柔。",
         ["自卑", "自我批评"]),
        ("sw-zh-compare", "zh", "和别人比较",
         "刷朋友圈时，看到的是别人生活的精彩片段。拿自己的全部去比别人的高光，只会越比越小。今天记下一件你做得不错的小事。",
         ["比较", "社交媒体"]),
    ],
    "family": [
        ("f-critical", "en", "Parents who criticise",
         "When a parent comments on your job, your weight or your choices, the old child in you answers first. "
         "Decide in advance on one calm sentence, such as I have it handled, and change the subject.",
         ["parents", "criticism"]),
        ("f-caring", "en", "Caring for an ageing parent",
         "Looking after a frail parent can bring love, resentment and exhaustion in the same afternoon. Ask "
         "siblings for specific help, look into respite care, and schedule a few hours that belong only to "
         "you.", ["caregiving", "ageing parents"]),
        ("f-siblings", "en", "Sibling rivalry that never ended",
         "Old roles follow adult siblings to every holiday table: the responsible one, the baby, the difficult "
         "one. You can step out of your role even if they don't, by answering the person in front of you rather "
         "than the child they used to be.", ["siblings", "rivalry"]),
        ("f-holidays", "en", "The holidays with family",
         "Family gatherings can bring out old tensions within an hour. Arrive knowing when you will leave, take a "
         "walk when things get heated, and have one ally at the table you can text.", ["holidays", "gatherings"]),
        ("f-teen", "en", "Parenting a teenager",
         "When a teenager slams the door, it often means they need distance, not that they have stopped needing "
         "you. Keep small, low-pressure moments going: car rides, late snacks, a show you both watch.",
         ["teenager", "parenting"]),
        ("f-baby", "en", "A new baby and no sleep",
         "The first months with a baby turn nights into shifts and days into a blur. Sleep deprivation makes "
         "every problem look larger, so trade night feeds with your partner if you can, and lower the bar for "
         "everything else.", ["new parents", "baby"]),
        ("f-inlaws", "en", "Setting limits with in-laws",
         "In-laws who drop by unannounced or hand out constant advice can strain a marriage. Agree with your "
         "partner first on what matters most, and let the one whose parents they are deliver the message.",
         ["in-laws", "marriage"]),
        ("f-zh-nagging", "zh", "妈妈总是唠叨",
         "父母的唠叨常常是担心的另一种说法。提前想好一句平静的话，比如“我心里有数”，然后换个话题，不必每次都争个对错。",
         ["父母", "唠叨"]),
        ("f-zh-newyear", "zh", "过年回家的压力",
         "过年回家被问工资、对象、什么时候生孩子，很多人都会紧张。提前准备好几句轻松的回答，也给自己留一点出门散步的时间。",
         ["过年", "催婚"]),
        ("f-zh-ageing", "zh", "父母老了",
         "看着父母慢慢变老、需要照顾，爱和疲惫会同时出现。和兄弟姐妹分工，请他们具体帮忙，也给自己留出只属于自己的时间。",
         ["照顾", "父母"]),
    ],
    "health": [
        ("h-results", "en", "Waiting for test results",
         "The days between a scan and its results can feel longer than weeks. Write your questions for the "
         "doctor as they come, plan small distractions for each day, and let one person know how you are "
         "doing.", ["medical tests", "waiting"]),
        ("h-pain", "en", "Living with chronic pain",
         "Pain that does not go away wears on mood, sleep and patience. Pace your activities instead of pushing "
         "through on good days and crashing after, and keep a simple log to bring to your doctor.",
         ["chronic pain", "pacing"]),
        ("h-fatigue", "en", "Tired all the time",
         "Fatigue that lasts for weeks deserves a check-up, not just more coffee. Ask about iron, thyroid and "
         "sleep, and meanwhile keep regular meals and a short daily walk, even when the couch calls.",
         ["fatigue", "energy"]),
        ("h-diagnosis", "en", "A new diagnosis",
         "Hearing a diagnosis can leave you stunned, with the questions only arriving days later. Ask for "
         "written information, bring someone to the next appointment, and allow yourself to grieve the plans "
         "that may change.", ["diagnosis", "chronic illness"]),
        ("h-move", "en", "Starting to move again",
         "After months of sitting, a single ten-minute walk counts. Tie movement to something you already do, "
         "like a phone call, and increase it by small steps; the aim is a habit, not a dramatic change.",
         ["exercise", "habits"]),
        ("h-weight", "en", "Weight and the doctor's advice",
         "Being told to lose weight can bring up shame that gets in the way of change. Focus on one habit you "
         "can keep, such as vegetables at lunch or an evening walk, and judge progress by energy, not by the "
         "scale.", ["weight", "doctor"]),
        ("h-heart", "en", "Heart health after a scare",
         "A high blood pressure reading or chest pain that turned out to be nothing is still a message worth "
         "hearing. Book the follow-up, learn your numbers, and pick one change to start this week rather than "
         "ten.", ["blood pressure", "heart"]),
        ("h-avoid", "en", "Putting off the doctor",
         "Avoiding a check-up because you fear bad news lets the worry grow in the dark. Book the appointment "
         "for a time of day when you feel strongest, and write down the symptom you keep dismissing.",
         ["avoidance", "check-up"]),
        ("h-zh-results", "zh", "等待检查结果",
         "做完检查等结果的那几天，时间过得特别慢。把想问医生的问题记下来，每天安排一点小事分散注意力，也告诉一个信任的人你的感受。",
         ["体检", "检查"]),
        ("h-zh-fatigue", "zh", "总是觉得累",
         "持续几周的疲惫值得去医院查一查，而不只是多喝咖啡。规律吃饭，每天散步十分钟，即使很想一直躺着。",
         ["疲劳", "体检"]),
    ],
    "money": [
        ("m-budget", "en", "Don't lose sleep over a budget",
         "A budget is a plan, not a verdict. Don't lose sleep over a month that went wrong; list this month's "
         "fixed costs, give every remaining pound a job, and check in for ten minutes each Sunday.",
         ["budget", "planning"]),
        ("m-debt", "en", "Facing debt",
         "Debt grows heavier when it lives unopened in a drawer. Open every statement, write the balances and "
         "interest rates in one list, and pay down the highest rate first while making the minimum on the "
         "rest.", ["debt", "credit card"]),
        ("m-paycheck", "en", "Living paycheck to paycheck",
         "When every month ends at zero, even a small buffer changes how you feel. Start an emergency fund with "
         "an amount so small it feels silly, and move it automatically on payday, before rent and bills.",
         ["savings", "emergency fund"]),
        ("m-couples", "en", "Money fights with a partner",
         "Couples rarely argue about the numbers; they argue about what money means: safety, freedom, fairness. "
         "Talk about how each of your families handled money before you talk about the budget.",
         ["couples", "money talks"]),
        ("m-market", "en", "When the market drops",
         "Watching savings fall in a market crash makes selling feel urgent. If the money is for years from now, "
         "the worst move is often to lock in the loss; close the app and revisit your plan next month.",
         ["investing", "stocks"]),
        ("m-spending", "en", "Shame about spending",
         "Impulse buying soothes a hard day for a few minutes. Instead of punishing yourself, wait a day before "
         "any unplanned purchase over a set amount, and notice what feeling you were trying to buy.",
         ["spending", "impulse buying"]),
        ("m-raise", "en", "Asking for a raise",
         "Feeling underpaid breeds quiet resentment. Find out what similar roles earn, list what you have "
         "delivered this year, and ask for a specific number in a meeting with your boss, not in passing.",
         ["salary", "negotiation"]),
        ("m-zh-paycheck", "zh", "月光族",
         "每个月工资一到手就花光，月底只能吃泡面。发工资当天先自动转一小笔钱到储蓄账户，金额小到不心疼也没关系。",
         ["存钱", "工资"]),
        ("m-zh-debt", "zh", "欠了信用卡",
         "信用卡账单越拖越重。把每张卡的欠款和利率列在一张纸上，先还利率最高的那张，其余的按最低还款额还。",
         ["负债", "信用卡"]),
        ("m-zh-budget", "zh", "不必为预算失眠",
         "预算是计划，不是判决。不必为一个超支的月份失眠，列出每月的固定开销，每周日花十分钟看一看就好。",
         ["预算", "记账"]),
    ],
    "study": [
        ("st-exam", "en", "Fear of failing an exam",
         "Worry about failing tends to grow in the days before a test. Plan short study blocks, sleep properly, "
         "and remember that one result does not decide who you are.", ["exams", "revision"]),
        ("st-procrastinate", "en", "Procrastination",
         "Putting off an essay is rarely laziness; it is usually fear of doing it badly. Set a timer for ten "
         "minutes and write the worst possible first paragraph. Momentum is easier to steer than to start.",
         ["procrastination", "essays"]),
        ("st-blank", "en", "When you blank in the exam hall",
         "If your mind goes blank in the middle of an exam, put the pen down, take three slow breaths and move to "
         "a question you can answer. Memory comes back more easily when the panic drops.", ["exams", "blanking"]),
        ("st-grades", "en", "Disappointing grades",
         "A bad grade hurts most when it feels like a verdict on your intelligence. Treat it as data: which "
         "topics, which type of question, what changed in how you prepared. Then talk to your teacher.",
         ["grades", "feedback"]),
        ("st-major", "en", "Choosing a major",
         "Picking a subject can feel like choosing your whole life at eighteen. Most people change direction more "
         "than once. Choose what you are curious enough to work hard at, and keep a door open to a second "
         "interest.", ["choosing a major", "university"]),
        ("st-job", "en", "Studying while holding down a job",
         "Juggling classes and shifts leaves little room for rest. Protect two fixed study slots a week as if "
         "they were shifts, use your lunch break for flashcards, and tell your manager your exam dates early.",
         ["working students", "time management"]),
        ("st-dropout", "en", "Thoughts of dropping out",
         "Wanting to leave your course can come from burnout, the wrong subject or trouble outside university. "
         "Talk to a tutor before deciding, and ask about taking a pause rather than leaving for good.",
         ["university", "dropping out"]),
        ("st-parents", "en", "Parents' hopes and your results",
         "When parents pin their hopes on your marks, every test carries their weight too. Tell them what is "
         "going well and what support would actually help, rather than hiding your scores.",
         ["expectations", "marks"]),
        ("st-zh-exam", "zh", "考试前的焦虑",
         "考试前几天越来越担心考砸，压力一天比一天大。把复习分成小块，每天按时睡觉，记住一次成绩不能决定你是谁。",
         ["考试", "复习"]),
        ("st-zh-essay", "zh", "拖延的论文",
         "论文一拖再拖，往往不是懒，而是怕写不好。定一个十分钟的闹钟，先写出最糟糕的第一段，开始了就容易继续。",
         ["拖延", "论文"]),
    ],
    "loneliness": [
        ("l-city", "en", "Lonely in a new city",
         "Moving somewhere new strips away the easy, unplanned contact of old friendships. Pick one recurring "
         "thing, a class or a club, and go every week; familiarity, not one great conversation, is what turns "
         "strangers into friends.", ["moving", "new city"]),
        ("l-friday", "en", "Friday nights alone",
         "Weekend evenings can sharpen loneliness because everyone else seems to have plans. Plan one small thing "
         "you look forward to, and send a message to someone first instead of waiting to be asked.",
         ["weekends", "plans"]),
        ("l-crowd", "en", "Lonely in a crowd",
         "You can sit among colleagues or family and still feel unseen. Loneliness is about being known, not "
         "about being near people. Choose one person and share something slightly more honest than usual.",
         ["being understood"]),
        ("l-fade", "en", "When friendships fade",
         "Adult friendships often drift without any falling out, as jobs, children and moves pull people apart. "
         "A short, specific invitation, coffee on Saturday, revives more friendships than a vague promise to "
         "catch up.", ["friendship", "drifting apart"]),
        ("l-alone", "en", "Living alone",
         "Silence at home can start to feel like a verdict on your life. Build small rituals of contact: a "
         "regular call, a neighbour you greet, a café where they know your order.", ["living alone", "routine"]),
        ("l-abroad", "en", "Lonely after a move abroad",
         "Far from home, even good days end with no one to tell. Keep a standing call with someone from home, "
         "and look for people who share your language as well as locals; both kinds of connection matter.",
         ["homesickness", "abroad"]),
        ("l-later", "en", "Loneliness in later life",
         "After retirement or losing a spouse, the days can stretch out empty. Volunteering, a walking group or a "
         "class give you a reason to leave the house and people who notice when you don't come.",
         ["older age", "retirement"]),
        ("l-online", "en", "Online but lonely",
         "Hundreds of contacts and no one to call is a modern kind of loneliness. Swap one hour of scrolling for "
         "one real conversation a week; even a voice message counts.", ["social media", "connection"]),
        ("l-zh-city", "zh", "一个人在外地",
         "刚到一个陌生的城市，下班后没有人可以说话。每周固定参加一个活动，熟悉感会慢慢把陌生人变成朋友。",
         ["孤独", "外地"]),
        ("l-zh-crowd", "zh", "身边有人却还是孤独",
         "和同事、家人在一起，也可能觉得没人真正懂你。孤独在于不被了解，而不是身边没人。试着向一个人说一点比平时更真实的话。",
         ["孤独", "理解"]),
    ],
    "anger": [
        ("an-snap", "en", "When you snap at the people you love",
         "Snapping at a partner or a child after a long day is often tiredness dressed as anger. Notice the early "
         "signs, a tight jaw and a hot face, and take ten minutes alone before the conversation goes on.",
         ["irritability", "family"]),
        ("an-road", "en", "Road rage",
         "Traffic turns ordinary people furious because it feels like a personal insult we cannot answer. Leave "
         "ten minutes earlier, play something calming, and say out loud what you are assuming about the other "
         "driver.", ["driving", "rage"]),
        ("an-pause", "en", "Counting before you speak",
         "Anger narrows attention to the threat in front of you. A pause of even six seconds lets the thinking "
         "brain catch up: walk away, splash cold water on your face, then decide what to say.",
         ["temper", "pause"]),
        ("an-resent", "en", "Resentment that simmers",
         "Old anger that was never spoken turns into resentment that colours every exchange. Write down exactly "
         "what you wanted and did not get, then decide whether to say it or to set it down.", ["resentment"]),
        ("an-boss", "en", "Angry at the boss",
         "Being humiliated by a manager can leave you furious for days, replaying what you should have said. Move "
         "the energy through your body first, with a fast walk or a workout, then plan a calm response.",
         ["workplace anger", "humiliation"]),
        ("an-break", "en", "After you break something",
         "If anger has ever made you slam doors, throw your phone or break a plate, that is a sign it needs a "
         "better outlet, not more shame. Find a physical release in advance, and talk to someone if it keeps "
         "happening.", ["outbursts", "violence"]),
        ("an-hurt", "en", "Anger that hides hurt",
         "Anger is often a bodyguard for hurt or fear. When you feel it flare, ask what it is protecting: a sense "
         "of being disrespected, ignored or unsafe. Naming the softer feeling often cools the hot one.",
         ["hurt", "feelings"]),
        ("an-news", "en", "Furious at the news",
         "Reading the news can leave you boiling with nowhere to put it. Limit it to one set time a day and turn "
         "some of the heat into a small action: a donation, a letter, an hour of help.", ["news", "outrage"]),
        ("an-zh-family", "zh", "对家人发脾气",
         "累了一天回到家，很容易对最亲的人发脾气。留意下巴发紧、脸发烫这些信号，先离开十分钟，等火气下去再回来说话。",
         ["发脾气", "家人"]),
        ("an-zh-boss", "zh", "被老板当众批评后的怒火",
         "被老板当众批评，气得几天都在脑子里回放。先让身体把火气释放掉，快走或者运动，再想一个冷静的回应。",
         ["愤怒", "职场"]),
    ],
}

# category -> [(language, query, [reading keys])], in the order they are numbered
WORRIES = {
    "sleep": [
        ("en", "cant fall asleep no matter how tired i am", ["s-awake", "s-mind"]),
        ("zh", "失眠怎么办", ["s-zh-awake", "s-awake"]),
        ("en", "I keep waking up at 4am and can't get back to sleep", ["s-early", "s-zh-early"]),
        ("en", "my mind won't shut off when i go to bed", ["s-mind", "s-zh-mind", "s-awake"]),
        ("zh", "每天凌晨三点就醒，然后再也睡不着", ["s-zh-early", "s-early"]),
        ("en", "I work night shifts and I can never sleep during the day", ["s-shifts"]),
        ("zh", "一躺下脑子就停不下来", ["s-zh-mind", "s-mind"]),
        ("en", "having the same nightmare over and over", ["s-dreams"]),
        ("en", "im on my phone in bed till 2am every night", ["s-screens"]),
        ("zh", "白天困得不行，午睡完晚上更睡不着", ["s-naps"]),
    ],
    "grief": [
        ("en", "My dog died last week and I can't stop crying", ["g-pet", "g-zh-pet"]),
        ("en", "lost my mom in march and i still reach for the phone to call her", ["g-parent", "g-first"]),
        ("zh", "妈妈去世三个月了，我还是每天都想哭", ["g-zh-family", "g-parent"]),
        ("en", "its been a year since my brother passed and the anniversary is coming up", ["g-anniversary"]),
        ("en", "i never got to say goodbye to my grandpa before he died", ["g-unsaid", "g-zh-unsaid"]),
        ("zh", "我的猫昨天走了，心里好空", ["g-zh-pet", "g-pet"]),
        ("en", "my best friend died in a car crash, she was 29", ["g-friend"]),
        ("en", "Dad has dementia and I feel like I'm already losing him", ["g-before"]),
        ("zh", "爷爷走之前我没能见他最后一面", ["g-zh-unsaid", "g-unsaid"]),
        ("en", "two weeks since the funeral and i cant even keep track of what day it is", ["g-first"]),
    ],
    "relationships": [
        ("en", "should i text my ex? its been 6 months", ["rl-ex"]),
        ("zh", "分手了还是忍不住看他的朋友圈", ["rl-zh-breakup", "rl-breakup"]),
        ("en", "we broke up 2 weeks ago and i check her instagram every hour", ["rl-breakup", "rl-zh-breakup"]),
        ("en", "my boyfreind and I keep fighting about the same stupid stuff", ["rl-argument", "rl-zh-argument"]),
        ("zh", "男朋友总是偷看我手机，我觉得好累", ["rl-jealous"]),
        ("en", "found out my husband has been texting another woman", ["rl-trust"]),
        ("zh", "我们是异地恋，感觉越来越远了", ["rl-distance"]),
        ("en", "the guy I was seeing just stopped answering my messages", ["rl-ghosted"]),
        ("en", "me and my wife feel like roommates now", ["rl-apart"]),
        ("zh", "和老公天天为一点小事吵架", ["rl-zh-argument", "rl-argument"]),
    ],
    "work": [
        ("en", "my boss tore apart my report in front of everyone", ["w-feedback", "w-zh-boss"]),
        ("zh", "老板总是批评我", ["w-zh-boss", "w-feedback"]),
        ("en", "i have to present to the whole department tomorrow", ["w-present"]),
        ("en", "completely burnt out, working 60 hour weeks and dead tired", ["w-burnout", "w-zh-overtime"]),
        ("zh", "天天加班，真的好累", ["w-zh-overtime", "w-burnout"]),
        ("en", "coworker sent me a really rude email and i want to reply right now", ["w-email"]),
        ("zh", "很想辞职，但又不敢", ["w-zh-quit", "w-quit"]),
        ("en", "my colleague keeps taking credit for my ideas", ["w-credit"]),
        ("en", "got laid off today after 8 years", ["w-laidoff"]),
        ("zh", "同事把我的方案说成是他的", ["w-credit"]),
    ],
    "anxiety": [
        ("en", "my heart races before every meeting", ["a-heart", "a-zh-heart"]),
        ("en", "had a panic attack on the bus today, thought i was dying", ["a-panic", "a-zh-panic"]),
        ("zh", "一开会就心跳加速，手心出汗", ["a-zh-heart", "a-heart"]),
        ("en", "i can't stop thinking what if everything goes wrong", ["a-whatif", "a-zh-whatif"]),
        ("en", "I'm terrified of making phone calls", ["a-calls"]),
        ("zh", "突然喘不过气，以为自己要死了", ["a-zh-panic", "a-panic"]),
        ("en", "get really anxious at parties, feel like everyone is judging me", ["a-social"]),
        ("en", "keep googling my symptoms and convincing myself i have something serious", ["a-symptoms"]),
        ("en", "i always feel on edge and tense for no reason", ["a-hum"]),
        ("zh", "总是担心万一出事了怎么办", ["a-zh-whatif", "a-whatif"]),
    ],
    "self-worth": [
        ("en", "everyone on instagram has a better life than me", ["sw-compare", "sw-zh-compare"]),
        ("en", "i hate myself and feel like im worthless", ["sw-critic", "sw-zh-critic"]),
        ("zh", "总觉得自己什么都做不好", ["sw-zh-critic", "sw-critic"]),
        ("en", "I feel like a fraud at my new job and they'll figure it out soon", ["sw-impostor"]),
        ("en", "i hate how i look, especially my weight", ["sw-body"]),
        ("zh", "刷朋友圈总觉得别人都过得比我好", ["sw-zh-compare", "sw-compare"]),
        ("en", "i can't say no to anyone even when im exhausted", ["sw-no"]),
        ("en", "made a stupid mistake at work and i can't stop replaying it", ["sw-mistake"]),
        ("en", "all my friends are married with houses and I'm 30 and still renting", ["sw-behind"]),
        ("zh", "别人夸我的时候，我就浑身不自在", ["sw-praise"]),
    ],
    "family": [
        ("en", "my mom criticizes everything i do, even my weight", ["f-critical", "f-zh-nagging"]),
        ("zh", "我妈每天都唠叨我", ["f-zh-nagging", "f-critical"]),
        ("en", "taking care of my dad after his stroke and im exhausted", ["f-caring", "f-zh-ageing"]),
        ("en", "my sister and i cant be in the same room without fighting", ["f-siblings"]),
        ("zh", "过年回家又要被催婚", ["f-zh-newyear", "f-holidays"]),
        ("en", "dreading christmas with my family already", ["f-holidays", "f-zh-newyear"]),
        ("zh", "爸妈年纪大了，一个人照顾他们好累", ["f-zh-ageing", "f-caring"]),
        ("en", "my 15 year old son won't talk to me anymore", ["f-teen"]),
        ("en", "our baby won't sleep and we're both falling apart", ["f-baby"]),
        ("zh", "婆婆总是干涉我们家的事", ["f-inlaws"]),
    ],
    "health": [
        ("en", "waiting on biopsy results and i'm a mess", ["h-results", "h-zh-results"]),
        ("en", "my back pain never goes away", ["h-pain"]),
        ("zh", "体检报告有几项异常，等复查结果的时候好焦虑", ["h-zh-results", "h-results"]),
        ("en", "always exhausted even after 9 hours of sleep", ["h-fatigue", "h-zh-fatigue"]),
        ("en", "just got diagnosed with type 2 diabetes", ["h-diagnosis"]),
        ("zh", "最近总是很累，睡多久都不够", ["h-zh-fatigue", "h-fatigue"]),
        ("en", "doctor says i need to lose weight and i feel ashamed", ["h-weight"]),
        ("en", "had chest pains last week, the ER said my heart is fine but i'm still shaken", ["h-heart"]),
        ("en", "been putting off seeing a doctor about a lump", ["h-avoid"]),
        ("zh", "医生说我血压太高，要减肥", ["h-heart", "h-weight"]),
    ],
    "money": [
        ("en", "I'm broke and rent is due friday", ["m-paycheck", "m-zh-paycheck"]),
        ("en", "drowning in credit card debt", ["m-debt", "m-zh-debt"]),
        ("zh", "每个月都是月光族，一分钱都存不下", ["m-zh-paycheck", "m-paycheck"]),
        ("en", "my husband and i fight about money constantly", ["m-couples"]),
        ("en", "lost 30% of my savings in stocks this year", ["m-market"]),
        ("zh", "信用卡欠了好几万，不知道怎么还", ["m-zh-debt", "m-debt"]),
        ("en", "can't stop online shopping and then i feel awful", ["m-spending"]),
        ("en", "i think i'm underpaid but too scared to ask my boss for a raise", ["m-raise"]),
        ("en", "overspent again this month, how do people stick to a budget", ["m-budget", "m-zh-budget"]),
        ("zh", "工资太低了，不敢跟老板提加薪", ["m-raise"]),
    ],
    "study": [
        ("en", "finals next week and i haven't started studying", ["st-exam", "st-procrastinate"]),
        ("en", "my essay is due tomorrow and ive done nothing", ["st-procrastinate", "st-zh-essay"]),
        ("zh", "马上要高考了，压力好大", ["st-zh-exam", "st-exam"]),
        ("en", "I always blank out during tests even when I know the answers by heart", ["st-blank"]),
        ("en", "failed my midterm, got a D and feel so stupid", ["st-grades"]),
        ("zh", "论文一直拖着不想写", ["st-zh-essay", "st-procrastinate"]),
        ("en", "no idea what to major in and applications are due", ["st-major"]),
        ("en", "working 30 hours a week and falling behind in class", ["st-job"]),
        ("en", "thinking about dropping out of uni", ["st-dropout"]),
        ("zh", "这次考试又没考好，不敢告诉爸妈", ["st-parents", "st-grades"]),
    ],
    "loneliness": [
        ("en", "just moved here for work and i don't know anyone", ["l-city", "l-zh-city"]),
        ("en", "another saturday night alone with no plans", ["l-friday"]),
        ("zh", "一个人在外地工作，下班后特别孤独", ["l-zh-city", "l-city"]),
        ("en", "surrounded by people all day but i feel so alone", ["l-crowd", "l-zh-crowd"]),
        ("en", "my friends all have kids now and we never see each other", ["l-fade"]),
        ("zh", "身边很多人，但没有一个真正懂我", ["l-zh-crowd", "l-crowd"]),
        ("en", "i live alone and go days without talking to anyone", ["l-alone"]),
        ("en", "international student here and so homesick it hurts", ["l-abroad"]),
        ("en", "since i retired nobody calls and the days feel empty", ["l-later"]),
        ("zh", "手机里几百个好友，却找不到一个能打电话的人", ["l-online"]),
    ],
    "anger": [
        ("en", "i keep yelling at my kids over nothing", ["an-snap", "an-zh-family"]),
        ("en", "i get crazy angry when someone cuts me off in traffic", ["an-road"]),
        ("zh", "下班回家总是忍不住对老公发火", ["an-zh-family", "an-snap"]),
        ("en", "I lose my temper so fast and say things I regret", ["an-pause"]),
        ("en", "still furious at my sister for something she did years ago", ["an-resent"]),
        ("zh", "一点小事就控制不住脾气", ["an-pause", "an-zh-family"]),
        ("en", "my boss humiliated me in a meeting and i want to scream", ["an-boss", "an-zh-boss"]),
        ("en", "punched a wall last night, i don't even know why i got that mad", ["an-break", "an-hurt"]),
        ("en", "why do i get so angry when people ignore me", ["an-hurt"]),
        ("zh", "被老板当众骂了，气到现在还没消", ["an-zh-boss", "an-boss"]),
    ],
}

HAN = re.compile(r"[\u4e00-\u9fff]")


def build():
    """The readings and worries as rows, checked."""
    assert sorted(READINGS) == sorted(CATEGORIES) and sorted(WORRIES) == sorted(CATEGORIES)
    ids, by_key, readings = {}, {}, []
    # Readings are numbered round-robin over the categories (r-001 sleep, r-002 grief, ...), so an id says
    # nothing about its category's block.
    for i in range(10):
        for category in CATEGORIES:
            key, language, title, text, tags = READINGS[category][i]
            assert key not in ids, key
            ids[key] = f"r-{len(readings) + 1:03d}"
            by_key[key] = (category, language)
            readings.append({"id": ids[key], "title": title, "text": text, "category": category, "tags": tags,
                             "language": language})
    for r in readings:
        if r["language"] == "en":
            words = len(r["text"].split())
            assert 25 <= words <= 60, (r["title"], words)
            assert not HAN.search(r["text"])
        else:
            chars = len(HAN.findall(r["text"]))
            assert 40 <= chars <= 90, (r["title"], chars)
        sentences = len(re.findall(r"[.!?](?=\s|$)|[。！？]", r["text"]))
        assert 2 <= sentences <= 3, (r["title"], sentences)
    assert len({r["title"] for r in readings}) == len(readings)
    worries = []
    for category in CATEGORIES:
        assert len(WORRIES[category]) == 10 and len(READINGS[category]) == 10, category
        for language, query, relevant in WORRIES[category]:
            assert 1 <= len(relevant) <= 3 and all(by_key[k][0] == category for k in relevant), (query, relevant)
            assert (language == "zh") == bool(HAN.search(query)), query
            n = len(worries) + 1
            worries.append({"id": f"w-{n:03d}", "query": query, "category": category,
                            "relevant": [ids[k] for k in relevant], "language": language,
                            "split": "dev" if n % 2 else "heldout"})
    assert len({w["query"] for w in worries}) == len(worries)
    count = lambda rows, lang: sum(1 for r in rows if r["language"] == lang)
    assert (len(readings), count(readings, "en"), count(readings, "zh")) == (120, 90, 30)
    assert (len(worries), count(worries, "en"), count(worries, "zh")) == (120, 80, 40)
    return readings, worries


def write_jsonl(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "scripts/bench/data/journal"
    readings, worries = build()
    os.makedirs(out, exist_ok=True)
    write_jsonl(os.path.join(out, "readings.jsonl"), readings)
    write_jsonl(os.path.join(out, "worries.jsonl"), worries)
    print(f"{out}: {len(readings)} readings, {len(worries)} worries")


if __name__ == "__main__":
    main()
