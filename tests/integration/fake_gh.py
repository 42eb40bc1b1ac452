"""A stand-in for `gh api` over a pull request's issue comments, for the
workflow replay. Every call is appended to $FAKE_GH_STATE/calls.jsonl (argv,
whether GH_TOKEN was set, the body sent); the comments live in
$FAKE_GH_STATE/comments.json and change as the real API would change them.

What it serves, as the REST API and gh v2.60.0 do:
- GET repos/R/issues/N/comments[?per_page=K]: pages of K (default 30) in
  creation order; the first page only unless --paginate
  (pkg/cmd/api/api.go); --jq runs on each page and prints strings raw
  (go-gh pkg/jq/jq.go), emulated with `jq -r`;
- PATCH repos/R/issues/comments/ID and POST repos/R/issues/N/comments with
  -F body=@FILE, read as a string (pkg/cmd/api/fields.go:160-167); the method
  is POST when fields are given and none is named.
Anything else is refused with exit 1, so the workflow cannot call what this
does not check."""
import json
import os
import re
import subprocess
import sys


def fail(message, code=1):
    print("gh: " + message, file=sys.stderr)
    sys.exit(code)


def main(argv):
    state = os.environ["FAKE_GH_STATE"]
    repo = os.environ["FAKE_GH_REPO"]
    pr = os.environ["FAKE_GH_PR"]
    call = {"argv": argv, "token": bool(os.environ.get("GH_TOKEN"))}
    try:
        if not call["token"]:
            fail("To use GitHub CLI in a GitHub Actions workflow, set the GH_TOKEN environment variable.", 4)
        if not argv or argv[0] != "api":
            fail(f"the fake serves `gh api` only, not {argv[:1]}")
        method, paginate, jq, fields, endpoint = None, False, None, {}, None
        args = argv[1:]
        i = 0
        while i < len(args):
            a = args[i]
            if a == "--paginate":
                paginate = True
            elif a in ("--jq", "-q", "--method", "-X", "-F", "--field"):
                if i + 1 == len(args):
                    fail(f"flag needs an argument: {a}")
                i += 1
                if a in ("--jq", "-q"):
                    jq = args[i]
                elif a in ("--method", "-X"):
                    method = args[i].upper()
                else:
                    key, _, value = args[i].partition("=")
                    if not value.startswith("@"):
                        fail(f"the fake reads -F fields from @FILE only: {args[i]}")
                    with open(value[1:], encoding="utf-8") as f:
                        fields[key] = f.read()
            elif a.startswith("-"):
                fail(f"unknown flag: {a}")
            elif endpoint is None:
                endpoint = a
            else:
                fail(f"accepts 1 arg(s), received more: {a}")
            i += 1
        if endpoint is None:
            fail("endpoint missing")
        method = method or ("POST" if fields else "GET")
        call.update({"method": method, "endpoint": endpoint, "fields": fields})
        path, _, query = endpoint.partition("?")
        params = dict(p.partition("=")[::2] for p in query.split("&") if p)
        comments_path = os.path.join(state, "comments.json")
        with open(comments_path, encoding="utf-8") as f:
            comments = json.load(f)

        if len(fields.get("body", "")) > 65536:  # the API's limit, in characters
            fail("Validation Failed: body is too long (maximum is 65536 characters) (HTTP 422)")
        listing = re.fullmatch(rf"repos/{re.escape(repo)}/issues/{pr}/comments", path)
        single = re.fullmatch(rf"repos/{re.escape(repo)}/issues/comments/(\d+)", path)
        if listing and method == "GET":
            per_page = int(params.get("per_page", "30"))
            pages = [comments[i:i + per_page] for i in range(0, len(comments), per_page)] or [[]]
            for page in pages if paginate else pages[:1]:
                text = json.dumps(page)
                if jq is None:
                    sys.stdout.write(text + "\n")
                    continue
                out = subprocess.run(["jq", "-r", jq], input=text, capture_output=True, text=True, check=False)
                if out.returncode != 0:
                    fail("jq: " + out.stderr.strip())
                sys.stdout.write(out.stdout)
        elif listing and method == "POST":
            if set(fields) != {"body"}:
                fail(f"POST comments takes a body only, got {sorted(fields)}")
            new = {"id": max([c["id"] for c in comments] + [5000]) + 1, "body": fields["body"],
                   "user": {"login": "github-actions[bot]", "type": "Bot"}}
            comments.append(new)
            with open(comments_path, "w", encoding="utf-8") as f:
                json.dump(comments, f)
            print(json.dumps(new))
        elif single and method == "PATCH":
            if set(fields) != {"body"}:
                fail(f"PATCH a comment takes a body only, got {sorted(fields)}")
            target = [c for c in comments if c["id"] == int(single.group(1))]
            if not target:
                fail("Not Found (HTTP 404)")
            target[0]["body"] = fields["body"]
            with open(comments_path, "w", encoding="utf-8") as f:
                json.dump(comments, f)
            print(json.dumps(target[0]))
        else:
            fail(f"the fake does not serve {method} {endpoint}")
    except SystemExit as done:
        call["exit"] = done.code
        raise
    finally:
        with open(os.path.join(state, "calls.jsonl"), "a", encoding="utf-8") as f:
            f.write(json.dumps(call) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
