/// The reflection journal's content: frames (ways of looking at a situation) and advice (one thing to do),
/// one per line as `kind|category|tag,tag|text`. Written for this example.
enum JournalSnippets {
    static let table = """
        frame|relationships|partner,conflict|An argument is often two people protecting the same thing in different ways.
        frame|relationships|partner,distance|Feeling far from a partner can be a sign of neglected routines, not lost love.
        frame|relationships|ex,breakup|Wanting to message an ex is often missing who you were then, not the person.
        frame|relationships|trust|Trust is rebuilt by small promises kept, not by one grand gesture.
        frame|relationships|jealousy|Jealousy points at something you want for yourself as much as at the other person.
        frame|relationships|dating|Dating feels like rejection only when each date has to be the answer.
        frame|relationships|breakup|The end of a relationship is also the end of a daily habit, and habits grieve too.
        frame|relationships|communication|What you did not say often weighs more than what you said badly.
        frame|relationships|loneliness,partner|You can feel lonely next to someone; that is information, not failure.
        frame|relationships|boundaries|A boundary is a description of what you will do, not a rule for the other person.
        frame|relationships|conflict|Repeating the same fight means the real topic has not been named yet.
        frame|relationships|commitment|Hesitating to commit can be care about getting it right rather than doubt.
        frame|relationships|apology|An apology that explains too much becomes a defence.
        frame|relationships|ex,closure|Closure is rarely given by the other person; it is something you decide.
        frame|relationships|respect|Being respected starts with how you speak about your own needs.
        frame|work|boss,conflict|A difficult manager is often a worried manager passing the pressure down.
        frame|work|overwork|Saying yes to everything is a way of deciding nothing.
        frame|work|career,change|Wanting a new job can mean wanting a new story about yourself.
        frame|work|failure,project|A failed project is data about the plan, not a verdict on you.
        frame|work|colleagues|Tension with a colleague is often a disagreement about priorities wearing a personal mask.
        frame|work|promotion|Being passed over stings most where it touches what you believe you are worth.
        frame|work|meetings|Meetings drain you when you attend them without a role.
        frame|work|procrastination|Putting work off is often avoiding a feeling the task brings, not the task itself.
        frame|work|imposter|Feeling like an imposter is common among people who keep learning.
        frame|work|burnout|Exhaustion that rest does not fix is a signal about the load, not about your strength.
        frame|work|motivation|Motivation tends to follow action more often than it leads it.
        frame|work|feedback|Criticism of your work is easier to hear once you separate it from your worth.
        frame|work|job,loss|Losing a job takes away a structure as well as an income.
        frame|work|perfectionism|Perfectionism is fear dressed up as high standards.
        frame|work|boredom|Boredom at work can be the first sign that you have outgrown a role.
        frame|health|anxiety|Anxiety is the body preparing for a danger the mind has not finished describing.
        frame|health|sleep,insomnia|Lying awake turns into a battle when sleep becomes a task to win.
        frame|health|exercise|Exercise you dislike will not last; movement you enjoy will.
        frame|health|diet,food|Eating is also comfort, and comfort deserves kinder tools than guilt.
        frame|health|illness|Being ill narrows your world; it is fair to grieve the parts you cannot reach.
        frame|health|pain,chronic|Chronic pain asks for pacing, which is different from giving up.
        frame|health|stress|Stress is not the enemy; stress without recovery is.
        frame|health|doctor,avoidance|Avoiding the doctor is often avoiding an answer, not the appointment.
        frame|health|drinking,alcohol|A drink at the end of each day can quietly become the only way to stop.
        frame|health|body,image|Your body is the place you live, not a project to finish.
        frame|health|energy,tired|Tiredness can come from too little rest or from too little meaning.
        frame|health|panic|A panic attack feels like dying and passes like weather.
        frame|health|mood,low|A low mood lies about how long it will last.
        frame|health|screen,phone|Scrolling late at night borrows energy from tomorrow.
        frame|health|ageing|Getting older changes what your body needs, not whether it deserves care.
        frame|family|parents,conflict|Arguing with parents is often two generations using different maps of the same road.
        frame|family|children,parenting|A child's tantrum is a feeling too big for them to hold alone.
        frame|family|siblings|Old sibling roles return at every family dinner until someone chooses differently.
        frame|family|parents,ageing|Caring for ageing parents reverses a relationship both of you knew by heart.
        frame|family|teenager|A teenager pushing away is practising independence on the safest people.
        frame|family|guilt|Family guilt often measures love with the wrong ruler.
        frame|family|holidays|Holidays raise expectations that ordinary days never have to meet.
        frame|family|divorce,children|Children of a separation need fewer explanations and more predictability.
        frame|family|in-laws|Tension with in-laws is usually about belonging, not about the details.
        frame|family|pregnancy,baby|A new baby reorganises a whole family, not only the parents' nights.
        frame|family|distance|Living far from family turns each visit into a test it cannot pass.
        frame|family|parenting,guilt|Good enough parenting is not a compromise; it is what children need.
        frame|family|estrangement|Distance from a family member can protect you and still hurt.
        frame|family|home,chores|Fights about chores are often fights about feeling seen.
        frame|family|inheritance,money|Disputes over an inheritance are often grief that has found a number.
        frame|money|debt|Debt feels heavier when it is vague; numbers make it a problem rather than a cloud.
        frame|money|budget|A budget is a plan for your values, not a punishment.
        frame|money|spending,impulse|Impulse buying is often buying a feeling that a thing cannot deliver.
        frame|money|salary,worth|Your salary is a market price, not a measure of your value.
        frame|money|saving|Saving is paying your future self first.
        frame|money|rent,housing|Worry about rent is worry about safety, which is why it keeps you awake.
        frame|money|comparison|Comparing money with friends compares your inside with their outside.
        frame|money|shame|Money shame keeps problems secret exactly when they need light.
        frame|money|partner,money|Couples rarely fight about money; they fight about what money means.
        frame|money|investing,risk|Fear of investing is often fear of being foolish rather than of losing.
        frame|money|generosity|Giving feels good until it becomes a way of being liked.
        frame|money|unemployment|A gap in income is temporary even when it does not feel like it.
        frame|money|bills|Unopened bills grow larger in the imagination than on paper.
        frame|money|scarcity|Scarcity shrinks attention to today, which makes planning feel impossible.
        frame|money|windfall|Unexpected money reveals what you have been postponing.
        frame|grief|loss,death|Grief is love that has lost its usual address.
        frame|grief|anniversary|Anniversaries of a loss bring grief back because memory keeps a calendar.
        frame|grief|guilt,death|Guilt after a death is often the mind looking for control it never had.
        frame|grief|pet,loss|Losing a pet is losing a daily companion, and that grief is real.
        frame|grief|waves|Grief comes in waves; a good day is not betrayal.
        frame|grief|anger|Anger in grief is love that has nowhere to go.
        frame|grief|miscarriage|A loss nobody saw is still a loss.
        frame|grief|friendship,ending|The end of a friendship can be grieved like a death.
        frame|grief|parent,death|Losing a parent changes your place in the line of generations.
        frame|grief|numbness|Feeling nothing after a loss is a pause, not an absence of love.
        frame|grief|moving,home|Leaving a home is grieving the person you were there.
        frame|grief|illness,diagnosis|A diagnosis can bring grief for a future you had imagined.
        frame|grief|memories|Remembering does not keep the wound open; it keeps the person close.
        frame|grief|support|People say clumsy things around grief because they are afraid too.
        frame|grief|time|There is no deadline for grief, only changes in its shape.
        frame|study|exam,fear|Fear of an exam is effort looking for somewhere to go.
        frame|study|procrastination,study|Studying late is often avoiding the discomfort of not knowing yet.
        frame|study|failure,grades|A bad grade measures one afternoon, not your mind.
        frame|study|focus|Focus is less about willpower than about removing what pulls you away.
        frame|study|choosing,major|Choosing what to study is choosing the next step, not the whole path.
        frame|study|comparison|Comparing yourself with classmates hides how much you have learned.
        frame|study|motivation,learning|Interest grows from competence; the boring start is part of learning.
        frame|study|thesis|A thesis feels endless until it is broken into pages.
        frame|study|language,learning|Learning a language means being a beginner in public, which takes courage.
        frame|study|memory|Forgetting is part of remembering; each review makes the trace stronger.
        frame|study|teachers|A teacher's harsh comment says as much about their day as about your work.
        frame|study|dropout|Leaving a course can be a correction, not a defeat.
        frame|study|group,project|Group projects reveal how people handle uncertainty.
        frame|study|adult,learning|Returning to study later in life brings experience younger students lack.
        frame|study|deadline|A deadline is a decision someone made; it can sometimes be renegotiated.
        frame|sleep|insomnia|The harder you try to sleep, the more awake the effort keeps you.
        frame|sleep|nightmares|Nightmares often replay what the day left unfinished.
        frame|sleep|schedule|Sleep follows rhythm more than hours; a steady wake time anchors it.
        frame|sleep|worry,night|Worries feel largest at 3 a.m. because the thinking brain is tired.
        frame|sleep|naps|A long nap repays today's debt with tomorrow night's sleep.
        frame|sleep|baby,sleep|Broken nights with a baby are a season, not a permanent state.
        frame|sleep|snoring,partner|Sleeping apart is a practical choice, not a verdict on a relationship.
        frame|sleep|shift,work|Shift work asks the body to live in two time zones at once.
        frame|sleep|dreams|Dreams mix memory and feeling; they are not instructions.
        frame|sleep|caffeine|Afternoon coffee is a loan taken against the night.
        frame|sleep|bedroom|A bedroom used for work teaches the mind to stay alert there.
        frame|sleep|oversleeping|Sleeping too much can be the body asking for a different kind of rest.
        frame|sleep|travel,jetlag|Jet lag is two clocks disagreeing; daylight settles the argument.
        frame|sleep|phone,night|The phone at night keeps a small part of you on duty.
        frame|sleep|rest|Rest is not only sleep; quiet waking hours restore too.
        frame|friendship|drifting,friends|Friendships drift when life changes, not always because someone stopped caring.
        frame|friendship|new,friends|Making friends as an adult takes repeated contact more than chemistry.
        frame|friendship|loneliness|Loneliness is a signal, like hunger, that a need is unmet.
        frame|friendship|betrayal|A friend's betrayal hurts twice: the act and the rewritten past.
        frame|friendship|jealousy,friends|Envying a friend's success can sit beside being happy for them.
        frame|friendship|one-sided|A friendship where only you reach out is asking a question.
        frame|friendship|moving,friends|Moving away tests which friendships were built on convenience.
        frame|friendship|conflict,friends|A fight with a friend can deepen the friendship if it is repaired.
        frame|friendship|social,anxiety|Social anxiety predicts judgement that rarely arrives.
        frame|friendship|group,excluded|Being left out of plans often has a dull reason, not a cruel one.
        frame|friendship|support|Asking a friend for help gives them a chance to matter.
        frame|friendship|old,friends|Old friends hold versions of you that nobody else remembers.
        frame|friendship|boundaries,friends|A friend who resents your limits is showing what the friendship costs you.
        frame|friendship|online,friends|Friendships that live online are still friendships.
        frame|friendship|reconnecting|Reconnecting after years is usually easier than the silence suggests.
        frame|self-worth|confidence|Confidence comes after doing the thing, rarely before.
        frame|self-worth|criticism,inner|The inner critic copies voices you heard long ago.
        frame|self-worth|comparison,social|Social media shows others' highlights beside your ordinary days.
        frame|self-worth|mistakes|A mistake is an event, not an identity.
        frame|self-worth|people-pleasing|Pleasing everyone means someone is always left out: usually you.
        frame|self-worth|rejection|Rejection tells you about fit, not about worth.
        frame|self-worth|achievement|Worth that depends on achievement has to be earned again every day.
        frame|self-worth|appearance|How you look is the least interesting thing about you.
        frame|self-worth|shame|Shame says you are bad; guilt says you did something bad. Only guilt can be fixed.
        frame|self-worth|success|Success can feel empty when it was someone else's goal.
        frame|self-worth|kindness,self|Speaking to yourself as to a friend is not weakness; it is accuracy.
        frame|self-worth|needs|Having needs is not being needy.
        frame|self-worth|change|You are allowed to become someone your past self did not expect.
        frame|self-worth|praise|Deflecting praise keeps you from hearing what you do well.
        frame|self-worth|purpose|Purpose is often found by noticing what you keep returning to.
        advice|relationships|partner,conflict|Take a twenty minute break when a fight escalates, and agree to come back to it.
        advice|relationships|partner,distance|Plan one evening a week without screens, just the two of you.
        advice|relationships|ex,breakup|Before texting an ex, write the message in a notebook and wait a day.
        advice|relationships|trust|Make one small promise this week and keep it exactly.
        advice|relationships|jealousy|Write down what you envy and one step toward it for yourself.
        advice|relationships|dating|Treat the next three dates as practice in listening rather than tests.
        advice|relationships|breakup|Change one daily routine you shared so the habit stops reopening the loss.
        advice|relationships|communication|Start with "I felt" instead of "you always" in the next hard talk.
        advice|relationships|loneliness,partner|Tell your partner one specific moment when you felt alone, without blame.
        advice|relationships|boundaries|Say your limit once, calmly, and follow through without a lecture.
        advice|relationships|conflict|Ask each other what the fight is really about, and write the answers down.
        advice|relationships|commitment|List what you need to feel sure, and share the list.
        advice|relationships|apology|Apologise in one sentence, name the harm, and stop there.
        advice|relationships|ex,closure|Write a letter to your ex that you will not send, then put it away.
        advice|relationships|respect|Notice one moment this week when you shrink your needs, and state them instead.
        advice|work|boss,conflict|Ask your manager what success looks like this month, in writing.
        advice|work|overwork|Before saying yes, ask what you would drop to make room.
        advice|work|career,change|Talk to two people who do the job you imagine before changing course.
        advice|work|failure,project|Write a short review of the project: what to keep, what to change, what to drop.
        advice|work|colleagues|Invite the colleague for a coffee and ask how they see the priorities.
        advice|work|promotion|Ask for concrete feedback on what would make you the obvious choice next time.
        advice|work|meetings|Decline one meeting this week where you have no role.
        advice|work|procrastination|Work on the dreaded task for ten minutes, then decide whether to go on.
        advice|work|imposter|Keep a file of thank-you notes and wins to reread on hard days.
        advice|work|burnout|Take a real day off this month with no email at all.
        advice|work|motivation|Start the day with the smallest possible step on the main task.
        advice|work|feedback|Reply to criticism with "thanks, let me think about it" and decide later.
        advice|work|job,loss|Keep a daily structure after losing a job: wake time, a walk, two hours of search.
        advice|work|perfectionism|Set a time limit for a task and deliver what you have when it ends.
        advice|work|boredom|Propose one new responsibility to your manager this quarter.
        advice|health|anxiety|Breathe in for four counts and out for six, five times.
        advice|health|sleep,insomnia|Get out of bed after twenty minutes awake and read something dull.
        advice|health|exercise|Try three kinds of movement this month and keep the one you enjoy.
        advice|health|diet,food|Add one vegetable to a meal you already like instead of banning foods.
        advice|health|illness|Ask one person to take over a weekly chore while you recover.
        advice|health|pain,chronic|Plan activities in short blocks with rests before the pain tells you to stop.
        advice|health|stress|Schedule ten minutes of recovery after each stressful meeting.
        advice|health|doctor,avoidance|Book the appointment today and tell a friend you did.
        advice|health|drinking,alcohol|Choose two alcohol-free evenings a week and notice how you sleep.
        advice|health|body,image|Unfollow accounts that make you feel worse about your body.
        advice|health|energy,tired|Track sleep, food and mood for a week to see where the energy goes.
        advice|health|panic|During panic, name five things you can see and four you can hear.
        advice|health|mood,low|Go outside for fifteen minutes of daylight before noon.
        advice|health|screen,phone|Charge the phone outside the bedroom tonight.
        advice|health|ageing|Book the check-up you have been postponing.
        advice|family|parents,conflict|Pick one topic you will not discuss at the next visit, and keep to it.
        advice|family|children,parenting|Stay close during a tantrum and name the feeling once.
        advice|family|siblings|Call a sibling about something other than family business.
        advice|family|parents,ageing|Make a shared list with siblings of who handles which care task.
        advice|family|teenager|Offer car rides; teenagers talk more sitting side by side.
        advice|family|guilt|Decide how often you can visit and say it kindly, once.
        advice|family|holidays|Plan one quiet hour for yourself during family holidays.
        advice|family|divorce,children|Keep the children's routines the same in both homes.
        advice|family|in-laws|Agree with your partner on one boundary before the next visit.
        advice|family|pregnancy,baby|Accept every offer of a cooked meal in the first weeks.
        advice|family|distance|Set a regular weekly call so visits carry less weight.
        advice|family|parenting,guilt|Write down three things you did well as a parent this week.
        advice|family|estrangement|Talk to a counsellor before deciding whether to reach out.
        advice|family|home,chores|List the chores together and split them by preference.
        advice|family|inheritance,money|Ask a neutral person to chair the conversation about the inheritance.
        advice|money|debt|List every debt with its rate and pay the most expensive first.
        advice|money|budget|Give every euro of this month's income a job before the month begins.
        advice|money|spending,impulse|Wait forty-eight hours before any purchase over fifty euros.
        advice|money|salary,worth|Research what similar roles pay and bring three results to your review.
        advice|money|saving|Set an automatic transfer to savings on payday.
        advice|money|rent,housing|Call your landlord early if rent will be late; early talks go better.
        advice|money|comparison|Mute conversations about money that leave you anxious.
        advice|money|shame|Tell one trusted person the exact number you are worried about.
        advice|money|partner,money|Hold a monthly money date with your partner to review spending calmly.
        advice|money|investing,risk|Start with a small automatic investment in a broad index fund.
        advice|money|generosity|Set a yearly giving budget so generosity stays a choice.
        advice|money|unemployment|Apply for the benefits you are entitled to this week.
        advice|money|bills|Open all the bills at once with a cup of tea and list the totals.
        advice|money|scarcity|Plan only the next seven days of money when the month feels impossible.
        advice|money|windfall|Park unexpected money in savings for a month before deciding.
        advice|grief|loss,death|Let friends help with ordinary tasks such as meals and errands.
        advice|grief|anniversary|Plan the anniversary day in advance, with company or a ritual.
        advice|grief|guilt,death|Write down what you knew then, not what you know now.
        advice|grief|pet,loss|Keep the collar or a photo somewhere you pass every day.
        advice|grief|waves|When a wave comes, sit with it for ten minutes instead of fighting it.
        advice|grief|anger|Move the anger through your body: a fast walk or a run.
        advice|grief|miscarriage|Name the loss to one person who will listen without fixing.
        advice|grief|friendship,ending|Write what the friendship gave you before letting it go.
        advice|grief|parent,death|Gather stories about your parent from their friends.
        advice|grief|numbness|Keep to simple routines until feeling returns; it usually does.
        advice|grief|moving,home|Take photos of the old home and walk through it once before leaving.
        advice|grief|illness,diagnosis|Ask your doctor for one written page on what happens next.
        advice|grief|memories|Start a notebook of memories and add one each week.
        advice|grief|support|Tell people exactly what helps: a call on Sundays, a meal, a walk.
        advice|grief|time|Join a grief group, where nobody asks you to be over it.
        advice|study|exam,fear|Test yourself with past papers instead of rereading notes.
        advice|study|procrastination,study|Study in twenty-five minute blocks with the phone in another room.
        advice|study|failure,grades|Ask the teacher to go through one wrong answer with you.
        advice|study|focus|Close every tab except the one you need before starting.
        advice|study|choosing,major|Sit in on one lecture of each subject you are considering.
        advice|study|comparison|Compare your notes with last month's notes, not with a classmate.
        advice|study|motivation,learning|Set a tiny daily target, such as one page or ten flashcards.
        advice|study|thesis|Write three hundred rough words a day and edit later.
        advice|study|language,learning|Talk with a language partner for fifteen minutes twice a week.
        advice|study|memory|Review new material after one day, three days, and a week.
        advice|study|teachers|Ask for an office-hours meeting to understand a harsh comment.
        advice|study|dropout|Talk to a study adviser before leaving; there may be a part-time path.
        advice|study|group,project|Agree on roles and a shared deadline at the first group meeting.
        advice|study|adult,learning|Tell classmates what you bring from work; it helps everyone.
        advice|study|deadline|Ask for an extension early, with a new date you can keep.
        advice|sleep|insomnia|Keep the same wake time every day, weekends included.
        advice|sleep|nightmares|Write down the day's worries before bed to close them.
        advice|sleep|schedule|Set an alarm for going to bed, not only for waking up.
        advice|sleep|worry,night|Keep a notepad by the bed and park worries until morning.
        advice|sleep|naps|Keep naps to twenty minutes and before three in the afternoon.
        advice|sleep|baby,sleep|Take turns with your partner for night feeds so each gets one long sleep.
        advice|sleep|snoring,partner|Try earplugs or separate rooms for a week and compare.
        advice|sleep|shift,work|Use blackout curtains and the same sleep window after night shifts.
        advice|sleep|dreams|Tell a vivid dream to someone; saying it aloud often shrinks it.
        advice|sleep|caffeine|Stop coffee after lunch for two weeks and watch your nights.
        advice|sleep|bedroom|Move work out of the bedroom, even just the laptop.
        advice|sleep|oversleeping|Get morning light as soon as you wake, even on dull days.
        advice|sleep|travel,jetlag|Switch to local mealtimes on arrival and seek morning daylight.
        advice|sleep|phone,night|Put the phone in another room an hour before bed.
        advice|sleep|rest|Take one unplanned quiet hour this weekend.
        advice|friendship|drifting,friends|Send a short message to a friend you miss today.
        advice|friendship|new,friends|Join a weekly club so you see the same people often.
        advice|friendship|loneliness|Say yes to the next invitation, even a small one.
        advice|friendship|betrayal|Tell your friend exactly what hurt, once, and see how they respond.
        advice|friendship|jealousy,friends|Congratulate your friend and note what their success makes you want.
        advice|friendship|one-sided|Wait to see whether they reach out before you do again.
        advice|friendship|moving,friends|Set a monthly video call with the friends you left behind.
        advice|friendship|conflict,friends|Apologise for your part first, without waiting for theirs.
        advice|friendship|social,anxiety|Arrive early to gatherings; talking to one person is easier than a crowd.
        advice|friendship|group,excluded|Ask the group directly to include you next time.
        advice|friendship|support|Ask one friend for one specific kind of help this week.
        advice|friendship|old,friends|Share an old photo with an old friend and ask what they remember.
        advice|friendship|boundaries,friends|Say no to one request and notice how the friend reacts.
        advice|friendship|online,friends|Plan a voice call with an online friend instead of only messages.
        advice|friendship|reconnecting|Write "I was thinking of you" and nothing more.
        advice|self-worth|confidence|Do one small brave thing today and write it down.
        advice|self-worth|criticism,inner|Give your inner critic a name and answer it as a friend would.
        advice|self-worth|comparison,social|Take a week off social media and notice your mood.
        advice|self-worth|mistakes|Describe the mistake in one sentence, fix what you can, and stop.
        advice|self-worth|people-pleasing|Say "let me check" before agreeing to anything this week.
        advice|self-worth|rejection|Count rejections as attempts; aim for ten this year.
        advice|self-worth|achievement|Spend an hour on something you will never be good at.
        advice|self-worth|appearance|List five things you like about yourself that have nothing to do with looks.
        advice|self-worth|shame|Tell the story to someone safe; shame shrinks when it is spoken.
        advice|self-worth|success|Write down whose goal you are pursuing, and whether it is still yours.
        advice|self-worth|kindness,self|Write yourself the note you would write to a friend in your place.
        advice|self-worth|needs|State one need plainly today without apologising.
        advice|self-worth|change|Write what you want to be true a year from now.
        advice|self-worth|praise|Answer the next compliment with "thank you" and nothing else.
        advice|self-worth|purpose|Notice what you do when nobody asks you to, and do more of it.
        """
}
