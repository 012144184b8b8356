#!/usr/bin/env python3
"""Fits and reports the score calibration of Hush's hybrid search (see calibration.sh).

fit:    reads <work>/<model>__<lang>.evidence.jsonl (every hit of every fitting query, with its cosine, keyword
        evidence and relevance label), fits p(relevant) = sigmoid(a + b*cosine + c*standing + d*keyword
        + e*standing*keyword)
        per model and language group by L2-regularised logistic regression (Newton's method), picks the default
        threshold on the same queries, and prints the Swift table.
report: reads <work>/<model>__<lang>__<mode>.test.json (hush eval --unanswerable on the held-out queries) and
        prints the table in docs/benchmarks.md.
apps:   reads the app-like sets' evidence (<work>/<model>__app-<set>.<fit|test>.evidence.jsonl: the planner's
        questions, some answered by nothing, and the journal's worries, answered in other words) beside the man
        pages' and prints what a good-match threshold keeps on their held-out halves: with the shipped table, with
        the table refitted on the man pages and the sets' fit halves together, and with a model of the search
        itself (the best hit's evidence -> p(something answers)). An experiment: nothing of it is shipped.
bound:  reads <work>/<model>__<lang>.bound.jsonl (the held-out queries' evidence) and prints the AUC of the
        first hit's score that a perfect judge of the set's labels reaches: it scores a right first hit 1 and a
        wrong one 0, so its AUC is a + (1 - a) / 2, a = the share of answerable queries whose first hit is
        right (wrong first hits tie with the unanswerable ones). Also the share of unanswerable first hits
        whose own page's NAME line shares at least half of its words (for Chinese and Japanese, characters)
        with the query (pages that answer it by the set's own standard), and the share of unanswerable first
        hits the shipped score keeps at the threshold that keeps 85 % of these queries' correct first hits
        (the best a per-language threshold could do).
"""
import glob
import json
import math
import os
import re
import sys

import numpy as np

GROUPS = {"en": "english", "und": "english", "zh": "cjk", "ja": "cjk", "ko": "cjk"}
# Models whose vectors know every language get one set of coefficients; English models one per group.
MULTILINGUAL = {"lexical"}


def group(model, language):
    return "all" if model in MULTILINGUAL else GROUPS.get(language, "other")


def features(hit):
    s = hit.get("cosine", 0.0)
    z = hit.get("standing", 0.0)
    k = hit.get("keyword", 0.0)
    return [1.0, s, z, k, z * k]


def fit_logistic(x, y, l2=1e-3, iterations=50, weights=None):
    """L2-regularised logistic regression by Newton's method; `weights` (one per row, default 1) weigh the rows."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    weights = np.ones(len(y)) if weights is None else np.asarray(weights, dtype=np.float64)
    w = np.zeros(x.shape[1])
    penalty = l2 * np.eye(x.shape[1])
    penalty[0, 0] = 0  # the intercept is not shrunk
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-(x @ w)))
        gradient = x.T @ ((p - y) * weights) + penalty @ w
        hessian = (x * (weights * p * (1 - p))[:, None]).T @ x + penalty
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.max(np.abs(step)) < 1e-9:
            break
    return w


def load(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def auc(positives, negatives):
    total = 0.0
    for p in positives:
        total += sum(1.0 if p > n else 0.5 if p == n else 0.0 for n in negatives)
    return total / (len(positives) * len(negatives))


def fit(work, langs, models):
    print("// Fitted by scripts/bench/calibration.sh fit (" + ", ".join(langs) + ").")
    for model in models:
        searches = []
        for lang in langs:
            searches += load(f"{work}/{model}__{lang}.evidence.jsonl")
        cross = []
        for path in sorted(glob.glob(f"{work}/{model}__x*.evidence.jsonl")):
            cross += load(path)
        for s in cross:
            s["cross"] = True
        searches += cross
        coefficients = {}
        for name in sorted({group(model, s["language"]) for s in searches}):
            x, y = [], []
            for s in searches:
                if not s["answerable"] or group(model, s["language"]) != name:
                    continue
                for hit in s["hits"]:
                    x.append(features(hit))
                    y.append(1.0 if hit["relevant"] else 0.0)
            coefficients[name] = fit_logistic(x, y)
            print(f"// {model} {name}: {len(y)} hits, {int(sum(y))} relevant; w = {np.round(coefficients[name], 3)}")

        def top(search):
            w = coefficients.get(group(model, search["language"]))
            if w is None:
                w = coefficients.get("english")
            best = None
            for hit in search["hits"]:
                p = 1 / (1 + math.exp(-float(np.dot(w, features(hit)))))
                if best is None or p > best[0]:
                    best = (p, hit["relevant"])
            return best

        answerable = [top(s) for s in searches if s["answerable"] and s["hits"]]
        unanswerable = [top(s)[0] for s in searches if not s["answerable"] and s["hits"]]
        correct = [p for p, relevant in answerable if relevant]
        print(f"// {model}: fit-half AUC {auc([p for p, _ in answerable], unanswerable):.4f}")
        for lang in sorted({s["language"] + ("-x" if s.get("cross") else "") for s in searches}):
            def here(s):
                return s["hits"] and s["language"] + ("-x" if s.get("cross") else "") == lang
            a = [top(s)[0] for s in searches if s["answerable"] and here(s)]
            u = [top(s)[0] for s in searches if not s["answerable"] and here(s)]
            if len(a) >= 20 and len(u) >= 20:
                print(f"//   {lang}: AUC {auc(a, u):.4f} ({len(a)} queries)")
        # The recommended threshold: the highest that keeps at least 85 % of the correct first hits, on the
        # same-language and on the cross-language (no shared words) queries alike.
        cross_correct = [top(s)[0] for s in searches if s["answerable"] and s.get("cross") and s["hits"]
                         and top(s)[1]]
        best = None
        for t in np.arange(0.001, 0.99, 0.001):
            kept = sum(p >= t for p in correct) / len(correct)
            kept_cross = sum(p >= t for p in cross_correct) / len(cross_correct) if cross_correct else 1
            wrong = sum(p >= t for p in unanswerable) / len(unanswerable)
            if kept >= 0.85 and kept_cross >= 0.85:
                best = (round(float(t), 3), kept, wrong)
        print(f"// {model}: threshold {best[0]} keeps {best[1]:.3f} of correct, {best[2]:.3f} of unanswerable")
        for name, w in coefficients.items():
            print(f"//   {name}: .init(intercept: {w[0]:.3f}, cosine: {w[1]:.3f}, standing: {w[2]:.3f}, "
                  f"keyword: {w[3]:.3f}, product: {w[4]:.3f})")


def report(work, langs, models):
    print("| model | language | AUC calibrated | AUC min-max | AUC cosine | min score | correct kept | "
          "unanswerable kept | nDCG@10 calibrated | nDCG@10 min-max |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for model in models:
        for lang in langs:
            r = {m: json.load(open(f"{work}/{model}__{lang}__{m}.test.json")) for m in ("calibrated", "hybrid", "semantic")}
            h = r["calibrated"]
            print(f"| {model} | {lang} | {h['auc']:.3f} | {r['hybrid']['auc']:.3f} | {r['semantic']['auc']:.3f} | "
                  f"{h.get('min_score', float('nan')):.2f} | {h.get('correct_kept', float('nan')):.3f} | "
                  f"{h.get('unanswerable_kept', float('nan')):.3f} | {h['ndcg@10']:.3f} | {r['hybrid']['ndcg@10']:.3f} |")
        # Cross-language pairs (the multilingual model): queries in one language, pages in another. Each pair
        # holds 10-20 held-out queries, so the row gives their means weighted by queries.
        pairs = []
        for path in sorted(glob.glob(f"{work}/{model}__x*__calibrated.test.json")):
            name = path.split("__x")[1].split("__")[0]
            pairs.append({m: json.load(open(f"{work}/{model}__x{name}__{m}.test.json"))
                          for m in ("calibrated", "hybrid", "semantic")})
        if pairs:
            total = sum(p["calibrated"]["queries"] for p in pairs)

            def mean(mode, key):
                return sum(p[mode].get(key, 0) * p[mode]["queries"] for p in pairs) / total

            print(f"| {model} | cross-language ({len(pairs)} pairs, {total} q; weighted means) | "
                  f"{mean('calibrated', 'auc'):.3f} | {mean('hybrid', 'auc'):.3f} | {mean('semantic', 'auc'):.3f} | "
                  f"{pairs[0]['calibrated'].get('min_score', float('nan')):.2f} | "
                  f"{mean('calibrated', 'correct_kept'):.3f} | {mean('calibrated', 'unanswerable_kept'):.3f} | "
                  f"{mean('calibrated', 'ndcg@10'):.3f} | {mean('hybrid', 'ndcg@10'):.3f} |")


def bound(work, langs, models):
    print("| model | language | queries | first hit right | AUC, shipped calibrated score | AUC, perfect judge of "
          "the labels | unanswerable first hits with the query's own description | unanswerable kept at the "
          "threshold that keeps 85 % of these correct first hits |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for model in models:
        for lang in langs:
            path = f"{work}/{model}__{lang}.bound.jsonl"
            if not os.path.exists(path):
                continue
            description = {}
            for q in load(f"{work}/../lang/{lang}/queries.jsonl"):
                for page in q["relevant"]:
                    description[page] = q["query"]

            def words(text):
                return set(text) - {" "} if lang in ("zh_CN", "ja") else set(re.findall(r"\w+", text.lower()))

            searches = [s for s in load(path) if s["hits"]]
            answerable = [s for s in searches if s["answerable"]]
            unanswerable = [s for s in searches if not s["answerable"]]
            right = sum(s["hits"][0]["relevant"] for s in answerable) / len(answerable)
            shipped = auc([s["hits"][0]["score"] for s in answerable], [s["hits"][0]["score"] for s in unanswerable])

            def answers(s):
                q, own = words(s["query"]), words(description.get(s["hits"][0]["id"], ""))
                return len(q & own) >= max(1, len(q | own)) / 2

            same = sum(answers(s) for s in unanswerable) / len(unanswerable)
            # The best operating point this score's ordering allows: a threshold set on these very queries at
            # the 15th percentile of the correct first hits' scores (what a per-language threshold could reach).
            correct = [s["hits"][0]["score"] for s in answerable if s["hits"][0]["relevant"]]
            cut = float(np.percentile(correct, 15))
            kept = sum(s["hits"][0]["score"] >= cut for s in unanswerable) / len(unanswerable)
            print(f"| {model} | {lang} | {len(answerable)} | {right:.3f} | {shipped:.3f} | "
                  f"{right + (1 - right) / 2:.3f} | {same:.3f} | {kept:.2f} |")


def app_searches(work, model, name, half):
    """An app-like set's searches with their labels: `answerable` false for a question that nothing answers."""
    path = f"{work}/{model}__app-{name}.{half}.evidence.jsonl"
    if not os.path.exists(path):
        return []
    answerable = {q["query"]: q.get("answerable", True) for q in load(f"{work}/{name}.{half}.jsonl")}
    searches = [s for s in load(path) if s["hits"]]
    for s in searches:
        s["answerable"] = answerable[s["query"]]
        s["set"] = name
    return searches


def shipped_thresholds():
    path = os.path.join(os.path.dirname(__file__), "..", "..", "Sources", "Hush", "Search",
                        "ScoreCalibration+Tables.swift")
    found = [float(v) for v in re.findall(r"recommendedMinScore: ([0-9.]+)", open(path, encoding="utf-8").read())]
    return dict(zip(["e5-small", "minilm", "lexical"], found))


def search_features(search):
    """The search's own evidence: the best cosine, standing and keyword evidence among its hits."""
    hits = search["hits"]
    c = max(h.get("cosine", 0.0) for h in hits)
    z = max(h.get("standing", 0.0) for h in hits)
    k = max(h.get("keyword", 0.0) for h in hits)
    return [1.0, c, z, k, z * k]


def apps(work, langs, models):
    thresholds = shipped_thresholds()
    print("| model | judge | threshold | planner held-out: answerable good / unanswerable not | journal held-out: "
          "answerable good | man pages (fit half): answerable good / unanswerable not | across languages: "
          "answerable good |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for model in models:
        man = [s for lang in langs for s in load(f"{work}/{model}__{lang}.evidence.jsonl") if s["hits"]]
        cross = [s for path in sorted(glob.glob(f"{work}/{model}__x*.evidence.jsonl")) for s in load(path)
                 if s["hits"]]
        fit_apps = app_searches(work, model, "planner", "fit") + app_searches(work, model, "journal", "fit")
        tests = {"planner": app_searches(work, model, "planner", "test"),
                 "journal": app_searches(work, model, "journal", "test"), "man": man, "cross": cross}
        if not fit_apps:
            continue

        def row(judge, threshold, score):
            def rate(searches, answerable):
                ps = [score(s) for s in searches if s["answerable"] == answerable]
                if not ps:
                    return None
                return sum((p >= threshold) == answerable for p in ps) / len(ps)

            def cell(name, both=True):
                a = rate(tests[name], True)
                u = rate(tests[name], False) if both else None
                if a is None:
                    return "–"
                return f"{100 * a:.1f} %" + (f" / {100 * u:.1f} %" if u is not None else "")

            print(f"| {model} | {judge} | {threshold:.3f} | {cell('planner')} | {cell('journal', False)} | "
                  f"{cell('man')} | {cell('cross', False)} |")

        # The shipped table: the search's score in calibrated mode is its best hit's relevance.
        row("shipped table", thresholds.get(model, 0.1), lambda s: max(h["score"] for h in s["hits"]))
        # The table refitted with the sets' fit halves (a question nothing answers: every hit wrong), and the
        # highest threshold that keeps 85 % of the correct first hits and of each set's answerable questions.
        both = [s for s in man + cross if s["answerable"]] + fit_apps
        coefficients = {}
        for name in sorted({group(model, s["language"]) for s in both}):
            rows = [(features(h), 1.0 if h["relevant"] else 0.0) for s in both
                    if group(model, s["language"]) == name for h in s["hits"]]
            coefficients[name] = fit_logistic([r[0] for r in rows], [r[1] for r in rows])

        def refitted(search):
            w = coefficients.get(group(model, search["language"]), coefficients.get("english"))
            return max(1 / (1 + math.exp(-float(np.dot(w, features(h))))) for h in search["hits"])

        correct = [refitted(s) for s in man + cross if s["answerable"] and s["hits"][0]["relevant"]]
        kept = [[refitted(s) for s in fit_apps if s["set"] == name and s["answerable"]] for name in ("planner",
                                                                                                     "journal")]
        threshold = max((t for t in np.arange(0.001, 0.99, 0.001)
                         if sum(p >= t for p in correct) >= 0.85 * len(correct)
                         and all(sum(p >= t for p in ps) >= 0.85 * len(ps) for ps in kept if ps)), default=0.001)
        row("table refitted with the sets", float(threshold), refitted)
        # A model of the search itself, fitted on the man pages' searches (with and without their page), the
        # cross-language ones and the sets' fit halves (weighted 5: they are few), at p = 0.5.
        for weight in (1, 5):
            searches = man + cross + fit_apps
            w_by_group = {}
            for name in sorted({group(model, s["language"]) for s in searches}):
                mine = [s for s in searches if group(model, s["language"]) == name]
                w_by_group[name] = fit_logistic([search_features(s) for s in mine],
                                                [1.0 if s["answerable"] else 0.0 for s in mine], iterations=60,
                                                weights=[weight if s.get("set") else 1 for s in mine])

            def answerable(search, w_by_group=w_by_group):
                w = w_by_group.get(group(model, search["language"]), w_by_group.get("english"))
                return 1 / (1 + math.exp(-float(np.dot(w, search_features(search)))))

            row(f"model of the search (sets weighted {weight})", 0.5, answerable)


if __name__ == "__main__":
    step, work, langs, models = sys.argv[1], sys.argv[2], sys.argv[3].split(","), sys.argv[4].split()
    {"fit": fit, "report": report, "bound": bound, "apps": apps}[step](work, langs, models)
