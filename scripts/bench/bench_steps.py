"""What the step-by-step benchmark scripts share (summary-focus.py, diversity.py): a sibling script loaded as a
module, the order packages are taken in, the command line of steps, and the results file.

    steps.main(__doc__, {"data": cmd_data, "index": cmd_index, "run": cmd_run, "report": cmd_report}, OUT)

runs `SCRIPT STEP [OUT]`, where `all` runs every step in the order given (each skips what it already made).
"""
import hashlib, importlib.util, json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The two `hush` binaries compared (HUSH_NEW: this package's release build), debian-descriptions.py's apt lists,
# how many hush processes run at once (one thread each) and at what niceness.
HUSH_OLD = os.environ.get("HUSH_OLD", "")
HUSH_NEW = os.environ.get("HUSH_NEW", os.path.normpath(os.path.join(HERE, "..", "..", ".build", "release", "hush")))
LISTS = os.environ.get("LISTS", "/tmp/hush-debdesc/apt-lists")
JOBS = int(os.environ.get("JOBS", "2"))
NICE = os.environ.get("NICE", "10")


def load(name, file):
    """The script `file` of this folder as the module `name` (debian-descriptions.py's parsers, say)."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sha1(name):
    """The order packages are taken in: by the sha1 of their name, spread over the alphabet."""
    return hashlib.sha1(name.encode()).hexdigest()


def write_results(out, results):
    path = os.path.join(out, "results.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(results, f, ensure_ascii=False, indent=1)
    print(f"\nall numbers: {path}")


def main(doc, steps, default_out):
    args = sys.argv[1:]
    if not args or (args[0] != "all" and args[0] not in steps):
        sys.exit(doc)
    out = args[1] if len(args) > 1 else default_out
    os.makedirs(out, exist_ok=True)
    for name, step in steps.items():
        if args[0] in ("all", name):
            step(out)
