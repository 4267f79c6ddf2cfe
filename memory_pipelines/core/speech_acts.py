"""Speech acts about the conversation itself: greetings, acknowledgements and thanks, requests
to the assistant, pauses and sign-offs ("meta"). Used by core/sentence_kinds.py. Pure Python."""

from __future__ import annotations

from memory_pipelines.core.patterns import rx as _rx

# Small words that may open a sentence before a greeting or a meta phrase ("Sure, here's ...",
# "Anyway, carry on": back to the conversation after an aside).
_LEAD = r"^\W*(?:(?:sure|ok(?:ay)?|right|great|yes|yeah|sorry|and|hmm+|anyway|anyhow)\W+)*"
META = _rx(  # talk about the conversation itself: reshape/repeat requests, pauses, sign-offs
    # announcing a speech act: "I've got a question about my pension", "Quick question:"
    r"^\W*(?:(?:hi|hello|hey|so|ok(?:ay)?)\W+)?(?:i've got|i have|i've|got|quick|one more|another|"
    r"just a)\s+(?:a\s+)?(?:quick\s+|small\s+|silly\s+)?(?:question|favou?r|request|query)\b|"
    + _LEAD
    + r"(?:let me (?:think|know|check|look)|remind me|help me|tell me|show me|"
    # "Next!", "Next one": a request; not "Next month I'm having a show"
    r"(?:shorter|longer|simpler|again|next(?=\W*$|\s+(?:one|please|step|part|page)\b)|more|"
    r"continue|go on|carry on)\b|repeat (?:that|it)|"
    r"(?:one|just a|give me a) (?:moment|sec|second|minute|mo|tick)\b|"
    r"hang on|hold on|brb|back in \d|(?:can|could|would|will) you\b[^?]*\?$|say that again|"
    r"what was .* again|here's (?:the|a|your) (?:\w+ )?(?:version|draft)|here you go|"
    r"you're welcome|have a (?:good|nice|great)|(?:good)?bye|see you|talk (?:later|soon)|"
    r"take care|good night|that's (?:all|it)\b|ready when you are|good (?:question|point)|"
    r"fair point|as requested|here(?:'s| is| are)\b[^.]*:$|take your time)|"
    r"\b(?:speak|talk|chat) (?:later|soon|tomorrow)\b|"
    r"\bhadn't thought of (?:that|it)\b|\blet me (?:dig|see|find|pull)\b|"
    r"\b(?:i'll|let me) (?:have a look|take a look|look at it|get back to you|come back to you|"
    r"think about it|sleep on it)\b|"
    r"\bmake (?:it|that|this) (?:\w+ )?(?:shorter|longer|simpler)\b|\bthat's (?:all|it) for "
    r"(?:now|today|tonight|the (?:day|week|evening)|this (?:week|session|chat)|me)\b|"
    r"\brepeat (?:that|it|the last)\b|"
    # the conversation's own time: "Just wanted to say hi", "Long time no talk", "We haven't
    # talked in ages"
    r"\bgotta (?:go|run|head off)\b|\bwanted to (?:say hi|check in|catch up|see how)\b|"
    # leaving the conversation: "Well, I'm off to go do some research", "I'm off to see them now"
    r"\b(?:i'm|i am|we're|we are) off (?:to go\b|now\b|[^.;]*\bnow\W*$)|"
    # the conversation's next turns, not a pledge of anything in the world: "I'll let you know",
    # "If you need anything, just ask", "If I need anything, I'll reach out"
    r"\b(?:i'll|i will|we'll|we will) (?:let you know|keep you (?:posted|updated|in the loop))\W*$|"
    r"^\W*(?:and\s+)?if (?:you|i) need anything\b|"
    r"^\W*(?:and\s+)?if there(?:'s| is) anything (?:else )?(?:i|we) can do\b|"
    # condolence: "I'm sorry about Max" (a preference, read as "I'm ... about")
    r"^\W*(?:i'm |i am )?(?:so |really |very )?sorry (?:about|to hear|for your|"
    r"(?:that )?you(?:'re| are|'ve| have))\b|"
    # curiosity about what the other will tell: "I'm keen to hear about it"
    r"\b(?:keen|eager|dying|excited|can't wait|cannot wait) to hear\b|"
    r"\blong time no (?:see|talk|chat|speak)\b|\b(?:it's |its )?me again\b|"
    r"^\W*(?:we )?(?:haven't|have not|hadn't) (?:talked|spoken|chatted|caught up)\b|"
    # what was said or asked, pointed at: "That's not what I asked", "this isn't what I meant"
    r"\b(?:that|this|it)(?:'s|\s+(?:is|was|isn't|wasn't))?\s+(?:not\s+|exactly\s+|just\s+)?"
    r"what (?:i|you) (?:asked|meant|said|wanted|requested|was asking|was after|had in mind)\b|"
    # asking after something said before: "just checking on the lease addendum", "following
    # up on my email"
    r"^\W*(?:(?:hi|hey|hello)\W+(?:\w+\W+)?)?(?:(?:(?:i'm|i am|we're|we are)\s+)?just\s+)?"
    r"(?<!i'm )(?<!i am )(?<!we're )(?<!we are )(?:checking|following up)\s+"
    r"(?:on|in on|about|re|back on)\b|"
    # thanks said as a debt: "I owe you forever", "owe you one", "I owe you big time"
    r"^\W*(?:(?:i|we)\s+)?owe (?:you|u|ya)\s+(?:one|big(?: time)?|forever|so much|my life|"
    r"a lot)\W*$|"
    # late for this very chat or meeting, and why: "sorry I'm late, the tram just sat there"
    r"\bsorry\W+(?:(?:i'm|i am|we're|we are|i was|for being)\s+)(?:running\s+)?"
    r"(?:a (?:bit|little) |so |really |\d+ (?:mins?|minutes) )?late\b|"
    # the message itself: "my CV's pasted below", "attached is the invoice", "see above"
    r"\b(?:pasted|attached|copied|linked|included)\s+(?:below|above|here)\b|"
    r"\b(?:see|as)\s+(?:below|above)\b|^\W*(?:attached|below|above)\s+(?:is|are)\b|"
    # the assistant's last output as the subject: "that answer was way too long"
    r"^\W*(?:that|this|your|the last|the previous|the first)\s+(?:\w+\s+)?(?:answer|reply|response|"
    r"explanation|version|suggestion|output|message)s?\b"
)
# The parts of an answer in this chat.
_CHAT_PART = (
    r"(?:paragraph|bullet|step|section|sentence|bit|part|point|line|table|list|answer|"
    r"explanation|example|reply|message)s?\b"
)
# Steering this conversation, not telling anything: "Can we start over?", "no, try again",
# "ignore my last message", "typed in the wrong chat", "let's park this", "number the steps",
# "Quick one", "I explained that badly", "you've saved my afternoon", "I'll keep that in mind".
# A clause after it keeps its own kind ("Ignore my last message, the budget is 5,000 now").
STEERING = _rx(
    r"\b(?:start|begin) (?:over|again|afresh)\b|\btry (?:that |it |this )?again\b|"
    r"\bignore (?:my|the|that|this) (?:last |previous |earlier )?"
    r"(?:message|msg|one|bit|question)\b|"
    r"\bwrong (?:chat|window|thread|tab|conversation)\b|"
    r"\blet's (?:park|pause|shelve|leave|come back to|pick up|continue|move on)\b|"
    r"\bpick (?:this|it|that) (?:back )?up (?:later|after|tomorrow|next)\b|"
    r"\b(?:number|bullet) the (?:steps|points|list|items)\b|"
    # how much the answer says: "too much Kubernetes detail", "I just need the gist"
    r"\btoo (?:much|many) (?:\w+ )?(?:detail|details|jargon|words|text|info|information)\b|"
    r"\b(?:just|only) (?:need|want) the (?:gist|short version|headlines?|highlights|basics)\b|"
    r"^\W*(?:(?:hi|hey+|morning|ok(?:ay)?|so)\W+)*(?:a )?quick one\b(?!\s*[:\u2013\u2014-])[^,;:]*|"
    # the speaker's own words in this chat: "I explained that badly", "I phrased it wrong"
    r"^\W*i (?:\w+ly )?(?:explained|phrased|worded|put|asked|typed) (?:that|it|this)\b"
    r"(?! (?:to|for)\b)|"
    # thanks for this conversation's help, and the listener's promise to remember it
    r"\byou(?:'ve| have) (?:saved|made) my (?:day|morning|afternoon|evening|week|life)\b|"
    r"\b(?:i'll|i will) (?:keep|bear) (?:that|this|it) in mind\b|"
    # the channel of this chat failing: "my phone died halfway through", "lost signal"
    r"\b(?:my )?(?:phone|battery|laptop|connection|signal|wi-?fi|internet) "
    r"(?:died|dropped|cut out)\b|"
    r"\blost (?:signal|connection|you)\b|\bgot cut off\b|"
    r"\bhold that thought\b|\bnever ?mind\b(?=\W*$|[,;:.!])|"
    # a message of this chat taken back: "Oops, sent too early. Ignore that."
    r"(?:^\W*(?:\w+\W+)?|[,;:]\s*)ignore (?:that|this|it|me)\W*$|"
    r"\b(?:sent|hit (?:send|enter)) (?:that |it |this )?too (?:early|soon|quickly)\b|"
    # the work of this conversation, proposed or offered: "Let's dig into it together",
    # "Let's break this down", "I can certainly help with that", "First, a few questions"
    r"^\W*(?:\w+\W+)?let's (?:(?:dig|dive|get) (?:in|into|started|going)|"
    r"(?:take|have) a (?:look|closer look)|see (?:what|how|if|where)|"
    r"(?:break|work|walk|go|talk|think) (?:it|this|that|them|these|those)?\s*"
    r"(?:down|through|over|out)?\s*(?:together|step by step))\b|"
    r"\bi(?:'d| would) be (?:happy|glad|delighted) to (?:help|walk you|go through|explain|talk you|"
    r"take a look|have a look|look)\b|"
    r"^\W*(?:\w+\W+)?i can (?:certainly |definitely |absolutely |happily |of course )?help"
    r"(?: you)? with (?:that|this|it)\b|"
    r"\b(?:a (?:couple|few) (?:of )?|some |two |three )(?:quick )?questions\b(?! about)|"
    # the reason given for a request just made: "just so I can follow along"
    r"^\W*(?:just )?so (?:that )?(?:i|we) can (?:follow|keep up|see|check|read|copy)\b|"
    # praise of the listener, whatever it is compared with: "You're funnier than my last
    # chatbot", "you've been a star", "you're the best" (not "you're better off with ...")
    r"^\W*(?:\w+\W+)?you(?:'re| are|'ve been| have been) (?:so |really |way |much |truly |"
    r"honestly |such |the |a |an |an absolute |a total )*(?:funn|smart|clever|quick|helpful|"
    r"genius|star|lifesaver|life saver|legend|hilarious|brilliant|amazing|best|better|"
    r"wonderful|awesome|patient|sweet|gem|champ|hero)\w*\b(?! off\b)"
    r"(?:,? (?:\w+ )?\w+er than\b[^.!?;]*)?|"
    # losing the thread of this chat: "I got lost around the second paragraph", "you lost me at
    # step 3", "I didn't follow that bit"
    r"\bi (?:got|get|'m|am|was) (?:a bit |a little |totally |completely |so |kind of )?"
    r"(?:lost|confused)(?= (?:around|at|after|in|on|by|with|from) (?:the |your |that |this )?"
    rf"(?:\w+ )?{_CHAT_PART})|\byou lost me\b|"
    r"\bi (?:didn't|don't|did not|do not) (?:quite |really )?(?:follow|get|understand) "
    rf"(?:(?:that|this|it|you)\W*$|(?:that|this|the) (?:\w+ )?{_CHAT_PART})"
)
# A question put by word order, its question mark left off: "can we go back to the budget".
QUESTION_ORDER = _rx(
    r"^\W*(?:(?:so|and|but|ok(?:ay)?|hmm+|wait)\W+)*(?:(?:can|could|would|will|shall|should|do|"
    r"does|did|is|are|am)(?:n't)? (?:i|we|you|it|he|she|they|this|that|there)|"
    # "is a savings account the move", "should the kids ...": not "did the school run"
    r"(?:is|are|should|can|could|would|will)(?:n't)? (?:a|an|the|my|your|our|his|her|their) |"
    r"(?:what|how|why|where|when|which|who)(?:'s| is| are| do| does| did| can| could| should|"
    r" would| will))\b"
)
# A question after a few words that tell nothing ("anyway distract me, how's the marathon
# training"), not after a statement ("we're moving to Tallinn in april, what should I know
# about renting there") nor of what was just said ("got the job, how's that").
_ASKS_HOW = _rx(r"(?:how|what|where)(?:'s| is| are| was| were)\b")
_OF_WHAT_WAS_SAID = _rx(r"\b(?:that|this|it)\W*$")


def asks_unmarked(low: str) -> bool:
    """Whether a lower-cased sentence typed without its end mark asks: in question word
    order, or so in its last clause after at most three words."""
    if low.endswith((".", "!", "?")):
        return False
    head, _, tail = low.rpartition(",")
    asked_after = (
        0 < len(head.split()) <= 3
        and bool(_ASKS_HOW.match(tail.strip()))
        and not _OF_WHAT_WAS_SAID.search(tail)
    )
    return bool(QUESTION_ORDER.match(low)) or asked_after


# "Let me ...": the speaker's own next step in the conversation ("Let me re-read the first
# part", "Wait, let me scroll up"), up to the first clause break.
HORTATIVE = _rx(
    r"^\W*(?:(?:ok(?:ay)?|right|sure|wait|stop|hang on|hold on|hmm+|sorry|actually|oh|so)\W+)*"
    r"let me \w+[^,;:]*"
)
ACK = _rx(
    # perhaps after surprise: "no way congrats auntie Malin!!!", "omg thank you"
    r"^\W*(?:(?:no way|omg|oh my (?:god|gosh)|yay|woo+|aw+|ooh)\W+)*"
    r"(?:thanks|thank you|thx|cheers|ta|perfect|great|awesome|cool|nice|lovely|brilliant|"
    r"excellent|amazing|ok(?:ay)?|sure|alright|sounds good|fair enough|lol|haha|hmm+|oh wow|"
    r"interesting|good to know|true|fair|no worries|no rush|all good|"
    r"wow|got it|gotcha|makes sense|noted|understood|will do|of course|no problem|right|yes|"
    r"yeah|yep|that's (?:great|perfect|brilliant|lovely|helpful|fine|amazing|awesome)|"
    # wishes, congratulations and apologies, social formulae like thanks
    r"sorry|apologies|my apologies|my bad|oops|good luck|best of luck|congrat\w*|well done|"
    r"(?:i )?(?:really )?appreciate (?:it|that|this|the kind words|your (?:kind )?words)|"
    r"have fun|enjoy (?:the|your)|safe travels|"
    r"get well soon|hope (?:it|you|that|the|all)|happy (?:birthday|holidays|new year|friday))\b"
)
GREETING = _rx(
    _LEAD
    # back at the keyboard, perhaps after a hello: "Hey hey, back at my desk with a coffee"
    + r"(?:(?:(?:hi|hello|hey+)\W+)*(?:i'm )?back (?:at|on|to) (?:my|the) (?:desk|computer|laptop|"
    r"keyboard|pc|phone|chat)|"
    r"hi|hello|hey+|welcome(?: back)?|hiya|heya|howdy|yo|morning|evening|afternoon|greetings|"
    r"good (?:morning|afternoon|evening|day)|i'm back|back now|"
    # the hello told as what the message is for: "just saying hi lol", "just checking in"
    r"(?:i'm |i was |i )?just (?:saying|wanted to say|popping in to say|dropping by to say) "
    r"(?:hi|hello|hey)|(?:i'm |i was )?just checking in|"
    # "Back, sorry!", "Back again": the speaker's return to the chat, said bare
    r"back(?: again)?(?=\W*$|\s*[,!.;:-]))\b"
)
# Something shown in the chat between people, presented: "Here's a pic of Oliver", "Here's one I
# did last week", "Check out this photo", "Look at that - we all donated for it". What it shows
# is in the picture, not in the sentence; a memory of it would point at nothing.
SHOWN = _rx(
    r"^\W*(?:(?:and|so|oh|also|plus|yeah|btw)\W+)*(?:here(?:'s| is| are)\b(?! (?:the|a) "
    r"(?:thing|deal|problem|catch)\b)|check (?:out )?(?:this|these|that|it)\b|"
    r"look at (?:this|that|these|those|it)\b)"
)
# A one-off task for the assistant ("Write a haiku", "Compare these two offers") is not memory.
# ... after a word that takes up the last answer ("cool, send me a rough plan").
REQUEST = _rx(
    r"^\W*(?:(?:cool|ok(?:ay)?|great|perfect|lovely|sure|right|yes|yeah|so|also|now|pls|please)"
    r"\W+)*"
    r"(?:write|draft|make|create|find|compare|summari[sz]e|translate|explain|list|fix|check|"
    r"sort|generate|plan|calculate|rewrite|proofread|review|look up|search|give me|tell me"
    r"|send me|show me)\b"
)
# An imperative whose object points back at the last output ("Try that again but less formal",
# "Wait, scroll back, I missed that", "Send it to me as a PDF this time"): a request about this
# conversation. The first word is taken for a verb when it is no pronoun, determiner, auxiliary,
# question word, -ing/-ed form or verb of acknowledgement ("Got it"); the pronoun must not open a
# relative clause ("Anything that needs thinking, ...").
ANAPHORIC_REQUEST = _rx(
    r"^\W*(?:(?:wait|ok(?:ay)?|now|hmm+|sorry|please|actually|oh|no|nah|nope|and|but|just)\W+)*"
    r"(?!(?:i|we|you|he|she|they|it|that|this|there|here|then|what|who|how|why|where|when|which|"
    r"is|are|was|were|does|did|can|could|will|would|should|and|but|or|so|the|a|an|my|our|"
    r"your|his|her|their|not|no|yes|yeah|got|get|love|like|hate|see|mean|\w+thing|\w+one)\b)"
    # the object may be placed in the last output: "that last bit", "this second part"
    r"[a-z]+(?<!ing)(?<!ed) (?:back\b|(?:it|that|this)"
    r"(?:\s+(?:last|first|second|third|previous|final|other|top|bottom|whole)(?:\s+[a-z]+)?)?"
    r"(?=\W*$|[,;:]|\s+(?:again|back|up|down|out|"
    r"over|one|bit|part|in|into|as|to|with|for|from|more|less|properly|instead|now|but)\b))"
)
