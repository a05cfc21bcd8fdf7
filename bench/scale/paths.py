#!/usr/bin/env python3
"""Request paths for `./dev bench scale` (bench/README.md, "scale").

For every GET /v1 operation that the running lastrod's /openapi.json lists, writes a file of
request paths with a spread of parameters (many classes, months, search terms, CNPJs, second
pages), drawn from the ingested data, so that no single cached row or page hides a scan:

    paths.py BASE_URL OUT_DIR DATABASE [PER_OP]

DATABASE is `sqlite:FILE` or `pgsql:CONNINFO` (read with sqlite3 or psql). The key is BENCH_KEY.
Writes OUT_DIR/<operationId>.paths (one path a line, shuffled with a fixed seed) and
OUT_DIR/operations.tsv, one line per operation: operationId, path template, plugin, number of
paths, then `ok`, or the reason it is not measured (no generator here for an operation a plugin
added, or no data to draw from). Each list's first paths are tried once: a list whose answers
are not all 2xx fails the run, naming the path and the status, since its figures would be of
errors. Data comes from the API where it lists it (/v1/fundos and /v1/screening pages, their
cursors) and from the database where it does not (CDA holders, documents, ANBIMA codes).
"""

import json
import os
import random
import re
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

BASE, OUT, DATABASE = sys.argv[1], sys.argv[2], sys.argv[3]
PER_OP = int(sys.argv[4]) if len(sys.argv) > 4 else 2000
KEY = os.environ["BENCH_KEY"]
CHECK = 20  # paths of each list tried once before the run
rng = random.Random(20261014)


def fail(message):
    print(f"bench scale: {message}", file=sys.stderr)
    sys.exit(1)


def get(path, auth=True):
    """(status, parsed JSON body or None) of GET BASE+path."""
    request = urllib.request.Request(BASE + path)
    if auth:
        request.add_header("Authorization", "Bearer " + KEY)
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, None


def data_of(path):
    status, body = get(path)
    if status != 200:
        fail(f"GET {path} answered {status} while gathering parameters")
    return body


def pages(path, limit=100, most=1000):
    """Every row of a cursor-paginated list (at most `most` pages)."""
    sep = "&" if "?" in path else "?"
    url = f"{path}{sep}limit={limit}"
    rows = []
    for _ in range(most):
        body = data_of(url)
        rows += body["data"]
        cursor = body["meta"].get("pagination", {}).get("next_cursor")
        if not cursor:
            break
        url = f"{path}{sep}limit={limit}&cursor={urllib.parse.quote(cursor)}"
    return rows


def next_page(path):
    """The path of the second page of `path`, or None when it has one page."""
    body = data_of(path)
    cursor = body["meta"].get("pagination", {}).get("next_cursor")
    if not cursor:
        return None
    return f"{path}&cursor={urllib.parse.quote(cursor)}"


def sql(query):
    """Rows (tuples of text) of a query on the deployment's database."""
    kind, _, where = DATABASE.partition(":")
    if kind == "sqlite":
        connection = sqlite3.connect(f"file:{where}?mode=ro", uri=True)
        try:
            return [tuple("" if v is None else str(v) for v in row) for row in connection.execute(query)]
        finally:
            connection.close()
    if kind == "pgsql":
        out = subprocess.run(["psql", where, "-XAtq", "-F", "\t", "-c", query], check=True,
                             capture_output=True, text=True).stdout
        return [tuple(line.split("\t")) for line in out.splitlines() if line]
    fail(f"unknown database {DATABASE!r} (sqlite:FILE or pgsql:CONNINFO)")


def q(params):
    return urllib.parse.urlencode(params, quote_via=urllib.parse.quote)


def spread(items, n):
    """Up to n items, evenly spread over the list (keeps its order)."""
    items = list(items)
    if len(items) <= n:
        return items
    return [items[i * len(items) // n] for i in range(n)]


def fill(make, n=PER_OP, tries=None):
    """Up to n distinct paths from make() (a path or None)."""
    out, seen = [], set()
    for _ in range(tries or n * 4):
        if len(out) >= n:
            break
        path = make()
        if path and path not in seen:
            seen.add(path)
            out.append(path)
    return out


# ---- What the data offers ------------------------------------------------------------------

print("bench scale: gathering parameters from the API and the database", file=sys.stderr)
funds = pages("/v1/fundos")
if not funds:
    fail("/v1/fundos lists no fund: was the registry ingested?")
class_of_cnpj = {}
for fund in funds:
    for c in fund.get("classes", []):
        if c.get("cnpj"):
            class_of_cnpj[c["cnpj"]] = c["class_id"]
    if len(fund.get("classes", [])) == 1:
        class_of_cnpj.setdefault(fund["cnpj"], fund["classes"][0]["class_id"])
class_ids = sorted({c["class_id"] for f in funds for c in f.get("classes", [])})
fund_ids = [f["fund_id"] for f in funds]
cnpjs = sorted({f["cnpj"] for f in funds} | set(class_of_cnpj))
cvm_codes = sorted({str(x["cvm_code"]) for f in funds for x in [f] + f.get("classes", []) if x.get("cvm_code")})
cvm_codes += [r[0] for r in sql("SELECT cvm_code FROM funds_subclass WHERE cvm_code IS NOT NULL")]

months = [r[0] for r in sql("SELECT DISTINCT month FROM funds_fidc_report ORDER BY month")]
if not months:
    fail("no FIDC monthly report in the database: was cvm.inf_mensal_fidc ingested?")
# The classes each of a dozen months screens (every page), for class-month pairs that exist.
class_months = []
screened_months = spread(months, 12)
if months[-1] not in screened_months:
    screened_months.append(months[-1])
for month in screened_months:
    class_months += [(r["class_id"], month, r) for r in pages(f"/v1/screening?month={month}")]
reporting = sorted({c for c, _, _ in class_months})


def words(texts, shortest=4):
    out = set()
    for text in texts:
        for word in re.split(r"[^\w]+", text or ""):
            if len(word) >= shortest and not word.isdigit():
                out.add(word.lower())
    return sorted(out)


name_words = words(f.get("name") for f in funds)
manager_words = words(f.get("manager") for f in funds)
administrator_words = words(f.get("administrator") for f in funds)
statuses = sorted({f["status"] for f in funds if f.get("status")})

cda = [(class_of_cnpj[c], m) for c, m in
       sql("SELECT cnpj, month FROM funds_cda_holder WHERE positions > 0 ORDER BY cnpj, month") if c in class_of_cnpj]
cda_fund_holders = [(class_of_cnpj[c], m) for c, m in sql(
    "SELECT DISTINCT cnpj, month FROM funds_cda_position WHERE invested_cnpj IS NOT NULL ORDER BY cnpj, month")
    if c in class_of_cnpj]
documents = [(class_of_cnpj[c], t, y) for c, t, y in sql(
    "SELECT DISTINCT cnpj, document_type, reference_year FROM funds_document ORDER BY 1, 2, 3") if c in class_of_cnpj]
anbima_codes = [r[0] for r in sql("SELECT anbima_code, class_cnpj FROM funds_anbima_subclass ORDER BY 1")
                if r[1] in class_of_cnpj]
print(f"bench scale: {len(funds)} funds, {len(class_ids)} classes, {len(months)} months "
      f"({months[0]} .. {months[-1]}), {len(class_months)} screened class-months, {len(cda)} CDA class-months "
      f"of registry classes, {len(documents)} document types-years, {len(anbima_codes)} ANBIMA codes",
      file=sys.stderr)


# ---- One generator per operation (operationId) ---------------------------------------------

def pick(items):
    return rng.choice(items) if items else None


def month_range():
    """from/to of a window within the months, or one of them open, or neither."""
    a, b = sorted(rng.sample(range(len(months)), 2)) if len(months) > 1 else (0, 0)
    return rng.choice([{}, {"from": months[a]}, {"to": months[b]}, {"from": months[a], "to": months[b]},
                       {"from": months[max(0, len(months) - 12)]}])


def gen_search():
    def make():
        p = rng.choice(["q"] * 6 + ["q2", "qcnpj", "manager", "administrator", "status", "cnpj"])
        params = {
            "q": lambda: {"q": pick(name_words)},
            "q2": lambda: {"q": pick(name_words)[:5]},
            "qcnpj": lambda: {"q": pick(cnpjs)[:6]},
            "manager": lambda: {"manager": pick(manager_words)},
            "administrator": lambda: {"administrator": pick(administrator_words)},
            "status": lambda: {"status": pick(statuses)},
            "cnpj": lambda: {"cnpj": pick(cnpjs)},
        }[p]()
        params["limit"] = rng.choice([10, 25, 25, 50, 100])
        return "/v1/fundos?" + q(params)
    first = fill(make)
    # Second pages of a spread of the first ones (each costs a call to make).
    seconds = [p for p in (next_page(x) for x in spread(first, min(200, PER_OP // 5))) if p]
    return first + seconds


def gen_resolve():
    def make():
        kind = rng.choice(["cnpj"] * 3 + ["cvm_code"] * 2 + (["anbima_code"] if anbima_codes else []))
        value = pick({"cnpj": cnpjs, "cvm_code": cvm_codes, "anbima_code": anbima_codes}[kind])
        return "/v1/resolve?" + q({kind: value})
    return fill(make)


def gen_classes():
    return [f"/v1/fundos/{f}/classes" for f in spread(fund_ids, PER_OP)]


def gen_subclasses():
    return [f"/v1/classes/{c}/subclasses" for c in spread(class_ids, PER_OP)]


def gen_documents():
    if not documents:
        return []

    def make():
        c, t, y = pick(documents)
        params = rng.choice([{}, {"document_type": t}, {"start_year": y} if y else {},
                             {"start_year": y, "end_year": y} if y else {"document_type": t},
                             {"limit": 10, "offset": 10}])
        return f"/v1/classes/{c}/documentos" + ("?" + q(params) if params else "")
    return fill(make)


def gen_portfolio_assets():
    if not cda:
        return []
    first = fill(lambda: "/v1/classes/{}/carteira/ativos?{}".format(
        *(lambda c, m: (c, q({"month": m, "limit": rng.choice([25, 100, 100, 500])})))(*pick(cda))))
    seconds = [p for p in (next_page(x) for x in spread(first, min(100, PER_OP // 5))) if p]
    return first + seconds


def gen_portfolio_funds():
    if not cda_fund_holders:
        return []
    return [f"/v1/classes/{c}/carteira/fundos?month={m}" for c, m in spread(cda_fund_holders, PER_OP)]


def gen_quotas(suffix):
    def gen():
        def make():
            params = month_range()
            return f"/v1/classes/{pick(reporting)}/{suffix}" + ("?" + q(params) if params else "")
        return fill(make)
    return gen


def gen_bands():
    return [f"/v1/classes/{c}/carteira/inadimplencia/faixas?month={m}" for c, m, _ in spread(class_months, PER_OP)]


def gen_snapshot():
    def make():
        c, m, _ = pick(class_months)
        return f"/v1/classes/{c}/snapshot" + rng.choice(["", f"?month={m}", f"?month={m}"])
    return fill(make)


SEGMENTS = sorted({r.get("primary_segment_code") for _, _, r in class_months if r.get("primary_segment_code")})


def gen_screening():
    def make():
        params = {}
        if rng.random() < 0.7:
            params["month"] = pick(months)
        if rng.random() < 0.4:
            params["fund_type"] = rng.choice(["FIDC", "FIDC-NP", "FIC-FIDC"])
        extra = rng.choice(["", "", "segment", "manager", "administrator", "nav", "delinquency", "subordination",
                            "status"])
        if extra == "segment" and SEGMENTS:
            params["segment"] = pick(SEGMENTS)
        elif extra == "manager":
            params["manager"] = pick(manager_words)
        elif extra == "administrator":
            params["administrator"] = pick(administrator_words)
        elif extra == "nav":
            params["min_nav_brl"] = rng.choice([1e6, 1e7, 5e7, 1e8])
        elif extra == "delinquency":
            params["max_delinquency_ratio"] = rng.choice([0.01, 0.05, 0.1])
        elif extra == "subordination":
            params["min_subordination_ratio"] = rng.choice([0.1, 0.2, 0.3])
        elif extra == "status":
            params["status"] = "Em Funcionamento Normal"
        params["sort"] = rng.choice(["nav_brl", "nav_brl", "delinquency_ratio", "subordination_ratio", "pdd_ratio",
                                     "name"])
        params["order"] = rng.choice(["desc", "asc"])
        params["limit"] = rng.choice([10, 25, 25, 50, 100])
        return "/v1/screening?" + q(params)
    first = fill(make)
    seconds = [p for p in (next_page(x) for x in spread(first, min(200, PER_OP // 5))) if p]
    return first + seconds


INDICATORS = ["resumo", "fluxos", "segmentos", "ativos", "prazos", "rentabilidade", "concentracao", "anbima",
              "anbima/segmentos", "distribuicao-pl", "participantes", "concentracao-top"]


def window():
    """One of the industry operations' period forms, within the ingested months."""
    form = rng.choice(["months", "months", "month", "range", "none"])
    if form == "months":
        return {"months": rng.choice([n for n in (1, 3, 6, 12, 24, 36, 60, 120) if n <= len(months)])}
    if form == "month":
        return {"month": pick(months)}
    if form == "range":
        a, b = sorted(rng.sample(range(len(months)), 2)) if len(months) > 1 else (0, 0)
        return {"from": months[a], "to": months[b]}
    return {}


def gen_indicators():
    def make():
        params = {"indicador": pick(INDICATORS), **window()}
        if rng.random() < 0.2:
            params["include_fic_fidc"] = "false"
        if rng.random() < 0.2:
            params["include_partial"] = "false"
        return "/v1/industria?" + q(params)
    return fill(make)


def gen_ranking():
    def make():
        params = {"order_by": rng.choice(["pl", "vehicles", "net_flow", "share_change"]),
                  "limit": rng.choice([10, 20, 50, 100]), **window()}
        if rng.random() < 0.3:
            params["offset"] = rng.choice([20, 50, 100])
        return "/v1/industria/gestoras/ranking?" + q(params)
    return fill(make)


GENERATORS = {
    "funds.search": gen_search,
    "funds.resolve": gen_resolve,
    "funds.classes": gen_classes,
    "funds.class_documents": gen_documents,
    "funds.class_subclasses": gen_subclasses,
    "funds.class_portfolio_assets": gen_portfolio_assets,
    "funds.class_portfolio_funds": gen_portfolio_funds,
    "funds.class_quotas": gen_quotas("cotas"),
    "funds.class_quota_operations": gen_quotas("cotas/operacoes"),
    "funds.class_delinquency_bands": gen_bands,
    "funds.class_snapshot": gen_snapshot,
    "funds.screening": gen_screening,
    "industry.indicators": gen_indicators,
    "industry.manager_ranking": gen_ranking,
    "schema.read": lambda: ["/v1/schema"],
}

# ---- The operations the server serves -------------------------------------------------------

status, document = get("/openapi.json", auth=False)
if status != 200:
    fail(f"/openapi.json answered {status}")
operations = []
for template, item in document["paths"].items():
    op = item.get("get")
    if template.startswith("/v1/") and op:
        operations.append((op["operationId"], template, op.get("x-plugin", "host")))
operations.sort()

os.makedirs(OUT, exist_ok=True)
with open(os.path.join(OUT, "operations.tsv"), "w") as table:
    for op_id, template, plugin in operations:
        generator = GENERATORS.get(op_id)
        if generator is None:
            note = "NOT MEASURED: no parameter generator in bench/scale/paths.py"
            print(f"bench scale: {op_id} ({template}): {note}", file=sys.stderr)
            table.write(f"{op_id}\t{template}\t{plugin}\t0\t{note}\n")
            continue
        paths = generator()
        if not paths:
            note = "NOT MEASURED: no data to draw its parameters from"
            print(f"bench scale: {op_id} ({template}): {note}", file=sys.stderr)
            table.write(f"{op_id}\t{template}\t{plugin}\t0\t{note}\n")
            continue
        rng.shuffle(paths)
        for path in paths[:CHECK]:
            status, _ = get(path)
            if not 200 <= status < 300:
                fail(f"{op_id}: GET {path} answered {status}; its figures would be of errors")
        with open(os.path.join(OUT, op_id + ".paths"), "w") as out:
            out.write("\n".join(paths) + "\n")
        table.write(f"{op_id}\t{template}\t{plugin}\t{len(paths)}\tok\n")
        print(f"bench scale: {op_id}: {len(paths)} paths", file=sys.stderr)
