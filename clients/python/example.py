import os, lastro
client = lastro.Client(os.environ.get("LASTRO_BASE_URL", "http://127.0.0.1:8080"), os.environ["LASTRO_API_KEY"])
for page in client.funds_search(q="credito", limit=20).iter_pages():  # one call per page, to the last
    for fund in page.data: print(fund["cnpj"], fund["name"], [c["class_id"] for c in fund["classes"]])
print(page.credits.remaining, "credits left this month")
