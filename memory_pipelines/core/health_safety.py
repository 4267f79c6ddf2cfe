"""Health, allergy and safety: never missed, whatever else the turn does ("Yes, I'm allergic to
peanuts" answering a question is no restatement of it). The words that mark such a sentence:
conditions, allergies, doses, hazards of a place, a medicine by the stem of its international
name, and protective equipment a place requires. Pure Python."""

from __future__ import annotations

from memory_pipelines.core.patterns import rx as _rx

# A medicine by the stem of its international name (the WHO's INN stems: "warfarin",
# "amoxicillin", "lisinopril", "sertraline"), or by a name everyone uses for it
_MEDICINE = (
    r"\b[a-z]{3,}(?:cillin|mycin|cycline|floxacin|azole|tidine|pril|sartan|olol|dipine|statin"
    r"|formin|gliptin|glutide|gliflozin|parin|farin|xaban|gatran|profen|proxen|fenac|coxib"
    r"|oxetine|traline|triptyline|ipramine|talopram|azepam|zolam|triptan|setron|thyroxine"
    r"|lukast|azepine|azapine|trigine"
    r"|peridone|apine|isone|olone|tropium)\b|"
    r"\b(?:paracetamol|acetaminophen|aspirin|codeine|morphine|tramadol|antibiotics?"
    r"|antidepressants?|steroids?|chemo\w*|radiotherapy|dialysis)\b"
)
SAFETY = _rx(
    r"\ballerg\w*|\banaphyla\w*|\bepi-?pen\b|\bintoleran\w*|\bcoeliac\b|\bceliac\b|"
    r"\bdiabet\w*|\basthma\w*|\binhaler\b|\binsulin\b|\bepilep\w*|\bseizures?\b|"
    r"\bpregnan\w*|\bmedication\b|\bprescri\w*|\bblood thinners?\b|\bpacemaker\b|"
    r"\bheart condition\b|\bhigh blood pressure\b|\bdiagnosed\b|\bwheelchair\b|"
    r"\bhearing aids?\b|\bcan(?:'t|not) (?:eat|have|take|drink)\b|"
    r"\bmust(?:n't| not) (?:eat|have|take)\b|"
    r"\b(?:is|am|'m|are) (?:deaf|blind|disabled)\b|\bsafeword\b|\bemergency contact\b|"
    # sensory and reading conditions: what is shown to the person must allow for them
    r"\bcolou?r[- ]?blind\w*|\bpartially sighted\b|\bhard of hearing\b|\bdyslexi\w*|"
    # a dose names a medicine, whatever it is called: "I take 100 milligrams of sertraline"
    r"\b\d+(?:\.\d+)?\s?(?:mg|milligrams?|mcg|micrograms?|ml|millilitres?|milliliters?)\b|"
    # hazards of a home or a place: gas leaking, carbon monoxide, a fire risk
    r"\bgas\b[^.;]{0,40}\bleak\w*|\bleak\w*[^.;]{0,20}\bgas\b|\bcarbon monoxide\b|"
    r"\bsmoke alarm\b|\bfire hazard\b|\bsmell(?:s|ed|ing)?\s+(?:of\s+)?gas\b|\bgas\s+smell\b|"
    # eyes that fail a person ("my night vision is terrible since the eye surgery"), an
    # operation had, a low blood sugar and what treats it ("the glucose tabs in my pocket")
    r"\b(?:night vision|eyesight|vision)\b[^.;,]{0,25}\b(?:terrible|bad|poor|failing|going"
    r"|blurr\w*|worse)\b|\b(?:poor|failing|blurr\w*)\s+(?:vision|eyesight)\b|\bsurgery\b|"
    r"\b(?:had|having|after|since|recovering from|before)\s+(?:an?|the|his|her|my|their)\s+"
    r"(?:\w+\s+)?operation\b|\bhypos?\b|\bhypoglyc\w*|\bglucose\b|"
    # a test of the blood that follows a condition ("hba1c 47 now", "cholesterol came back
    # at 6.2")
    r"\bhba1c\b|\bblood sugars?\b|\bcholesterol\b|"
    # ... a part of a building or a thing to stand on that gives way, wiring left live
    r"\b(?:loose|broken|rotten|rotting|wobbly|collapsed)\s+(?:\w+\s+)?(?:treads?|steps?|stairs?"
    r"|railings?|banisters?|handrails?|floorboards?|ladder)\b|\b(?:live|exposed|bare)\s+wires?\b|"
    r"\basbestos\b|"
    # an injury, and the aid a person now walks with: "he broke his wrist", "a torn ACL",
    # "he uses a walker now"
    r"\b(?:broke|broken|fractured?|sprained?|torn|tore|dislocated?)\s+(?:(?:his|her|their|my|"
    r"your|a|an|the)\s+)?(?:\w+\s+)?(?:arm|wrist|leg|ankle|hip|collarbone|ribs?|foot|hand|"
    r"fingers?|toes?|nose|elbow|knee|shoulder|ligament|acl|meniscus|achilles|pelvis|jaw)\b|"
    r"\bconcussion\b|\b(?:uses|needs|on|with)\s+(?:a\s+)?(?:walker|zimmer frame|walking "
    r"stick|crutches|cane|mobility scooter)\b|"
    # an organ that is failing or weak: "the vet said his kidneys are already weak"
    r"\b(?:kidneys?|liver|heart|lungs?|thyroid|pancreas|bladder)\b[^.;,]{0,20}\b(?:weak|failing"
    r"|failure|disease|damaged?|murmur)\b|\b(?:weak|failing|damaged)\s+(?:kidneys?|liver|heart"
    r"|lungs?)\b|"
    # a long-term condition, by its common name: "hay fever's awful", "he has ADHD", "2 yrs
    # sober now"
    r"\bhay ?fever\b|\bmigraines?\b|\badhd\b|\bautis(?:m|tic)\b|\barthritis\b|\beczema\b|"
    r"\bpsoriasis\b|\bcrohn'?s\b|\bcolitis\b|\bibs\b|\bdementia\b|\balzheimer'?s\b|"
    r"\bparkinson'?s\b|\bcopd\b|\bchemo(?:therapy)?\b|\bdialysis\b|\bhigh bp\b|\bsober\b|"
    r"\bblood pressure\b|\bheart attack\b|\bstroke\b(?! of)|" + _MEDICINE
)
# Protective equipment a place or a task requires ("nobody goes in without a respirator"): a
# person's rule is a safety fact; the assistant's is advice (core/extract_parts).
PROTECTIVE = _rx(
    r"\b(?:without|wear|wears|wearing|put on)\s+(?:(?:a|an|the|their|his|her|your|my)\s+)?"
    r"(?:respirator|face ?mask|helmet|hard hat|goggles|safety glasses|harness|life ?jacket"
    r"|seat ?belt|ear (?:defenders|protection)|hi-?vis|(?:blade |saw |chain )?guard|gloves"
    r"|safety (?:catch|cap|rail|line|gate))\b"
)
MEDICINE = _rx(_MEDICINE)
