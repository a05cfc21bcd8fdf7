-- wrk script: every request carries the bench key (BENCH_KEY) and counts as one call.
wrk.headers["Authorization"] = "Bearer " .. os.getenv("BENCH_KEY")
