// Billing under faults (docs/billing.md): a lastrod killed under load, two lastrods sharing
// one database, and the database going away and coming back. Every check is made against the
// records an operator sees (`lastro ledger`, `lastro keys usage`), from the responses the
// clients actually received: a charge a client saw is recorded once, nothing stays reserved,
// nothing is spent beyond an allowance or a minute's limit, and an unanswerable call costs
// nothing.
#include "api_fixture.hpp"

#include <lastro/sdk/testing/ledger.hpp>

#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <iterator>
#include <latch>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace lastro::e2e {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

class BillingFaultsTest : public BackendTest<BillingFaultsTest> {
public:
    static constexpr const char* kLabel = "faults";
    static DeploymentOptions Options() { return HostOptions(); }
};

INSTANTIATE_TEST_SUITE_P(Sqlite, BillingFaultsTest, ::testing::Values(Backend::kSqlite), BackendParamName);
INSTANTIATE_TEST_SUITE_P(Postgres, BillingFaultsTest, ::testing::Values(Backend::kPostgres),
                         BackendParamName);

// One call as the client saw it.
struct Outcome {
    std::size_t key = 0;  // index into the test's keys
    std::string target;
    HttpResponse response;

    std::string RequestId() const { return response.Header("X-Request-Id").value_or(""); }
    // X-Credits-Charged; -1 when absent or not an integer.
    std::int64_t Charged() const { return response.IntHeader("X-Credits-Charged").value_or(-1); }
};

// Who sends what: thread `t` sends its `i`th call to ports[t % ports.size()] with
// keys[(t + i) % keys.size()] and targets[(t + 2 * i) % targets.size()], so every thread
// mixes keys and operations.
struct Load {
    std::vector<std::uint16_t> ports;
    std::vector<std::string> keys;
    std::vector<std::string> targets;
    int threads = 4;
    int calls_per_thread = 0;  // 0: until `stop`
};

// Runs `load` from its own threads, one HttpClient each, all released together. With
// calls_per_thread 0 it runs until `stop` is set and then returns what was received.
std::vector<Outcome> RunLoad(const Load& load, const std::atomic<bool>& stop,
                             std::atomic<std::size_t>* answered = nullptr) {
    std::mutex mutex;
    std::vector<Outcome> all;
    std::latch start(load.threads);
    std::vector<std::thread> threads;
    for (int t = 0; t < load.threads; ++t) {
        threads.emplace_back([&, t] {
            HttpClient http(load.ports[static_cast<std::size_t>(t) % load.ports.size()]);
            std::vector<Outcome> mine;
            start.arrive_and_wait();
            // Bounded even when calls_per_thread is 0: the caller stops it long before.
            const int limit = load.calls_per_thread > 0 ? load.calls_per_thread : 100000;
            for (int i = 0; i < limit && !(load.calls_per_thread == 0 && stop.load()); ++i) {
                Outcome o;
                o.key = static_cast<std::size_t>(t + i) % load.keys.size();
                o.target = load.targets[static_cast<std::size_t>(t + 2 * i) % load.targets.size()];
                o.response = http.Get(o.target, load.keys[o.key]);
                if (answered && o.response.status != 0) {
                    ++*answered;
                }
                mine.push_back(std::move(o));
            }
            std::lock_guard lock(mutex);
            all.insert(all.end(), std::make_move_iterator(mine.begin()), std::make_move_iterator(mine.end()));
        });
    }
    for (std::thread& thread : threads) {
        thread.join();
    }
    return all;
}

// Every ledger entry of the months a test spanned (a test may straddle a month's end).
std::vector<LedgerEntry> LedgerSince(const Deployment& d, std::time_t started) {
    std::vector<LedgerEntry> entries = ReadLedger(d, UtcMonth(started));
    if (UtcMonth(std::time(nullptr)) != UtcMonth(started)) {
        for (LedgerEntry& e : ReadLedger(d, UtcMonth(std::time(nullptr)))) {
            entries.push_back(std::move(e));
        }
    }
    return entries;
}

std::map<std::string, LedgerEntry> ById(const std::vector<LedgerEntry>& entries) {
    std::map<std::string, LedgerEntry> by_id;
    for (const LedgerEntry& e : entries) {
        by_id.emplace(e.request_id, e);
    }
    return by_id;
}

// A key's usage summed over the months a test spanned.
KeyUsage UsageSince(const Deployment& d, std::int64_t key_id, std::time_t started) {
    KeyUsage sum = ReadKeyUsage(d, key_id, UtcMonth(started));
    if (UtcMonth(std::time(nullptr)) != UtcMonth(started)) {
        const KeyUsage later = ReadKeyUsage(d, key_id, UtcMonth(std::time(nullptr)));
        sum.charged += later.charged;
        sum.reserved += later.reserved;
        sum.ledger_charged += later.ledger_charged;
        sum.ledger_reserved += later.ledger_reserved;
        sum.ledger_entries += later.ledger_entries;
        sum.leased += later.leased;
    }
    return sum;
}

// Polls (bounded) until the instances hold nothing of the key's months any more: their idle
// leases return (PostgreSQL; always 0 on SQLite). Returns the last figures.
KeyUsage WaitUntilNothingLeased(const Deployment& d, std::int64_t key_id, std::time_t started,
                                std::chrono::seconds bound) {
    const auto deadline = Clock::now() + bound;
    KeyUsage usage = UsageSince(d, key_id, started);
    while (usage.leased != 0 && Clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
        usage = UsageSince(d, key_id, started);
    }
    return usage;
}

// The usage row and the ledger agree, and nothing is left reserved.
void ExpectSettledUsage(const KeyUsage& usage, std::int64_t key_id) {
    SCOPED_TRACE("key " + std::to_string(key_id));
    EXPECT_EQ(usage.charged, usage.ledger_charged) << "the usage row and the ledger disagree";
    EXPECT_EQ(usage.reserved, 0) << "credits left reserved";
    EXPECT_EQ(usage.ledger_reserved, 0) << "ledger entries left reserved";
}

std::string DatabaseField(const HttpResponse& health) {
    if (health.status != 200) {
        return "(status " + std::to_string(health.status) + ")";
    }
    const boost::json::value body = health.Json();
    const boost::json::value* database =
        body.is_object() ? body.get_object().if_contains("database") : nullptr;
    return database && database->is_string() ? std::string(database->get_string()) : "(missing)";
}

// Polls /health (bounded) until its "database" reads `wanted`; returns the last answer.
HttpResponse WaitForHealth(HttpClient& http, const std::string& wanted, std::chrono::seconds bound) {
    const auto deadline = Clock::now() + bound;
    HttpResponse health = http.Get("/health");
    while (DatabaseField(health) != wanted && Clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        health = http.Get("/health");
    }
    return health;
}

TEST_P(BillingFaultsTest, SigkillUnderLoadLosesNoChargeAndLeavesNothingReserved) {
    const std::time_t started = std::time(nullptr);
    // Allowances that last the whole run, that run out during it (429s), and in between.
    const std::vector<CreatedKey> keys = {D().CreateKeyWithId({1000000, 100000, "", ""}),
                                          D().CreateKeyWithId({60, 100000, "", ""}),
                                          D().CreateKeyWithId({2000, 100000, "", ""})};
    const std::string cnpj = Str(D().AllItems("/v1/fundos", "", 100).front(), "cnpj");
    // 200 charged 1; 404 charged 1 and 5 (unknown ids); 422 refunded; 200 charged 1.
    const std::vector<std::string> targets = {"/v1/fundos?limit=1", "/v1/fundos/" + RandomUuid() + "/classes",
                                              "/v1/classes/" + RandomUuid() + "/snapshot",
                                              "/v1/fundos?limit=0", "/v1/resolve?cnpj=" + cnpj};

    // A lastrod of its own (instance e2e-faults-<backend>-kill); on PostgreSQL the fixture's
    // keeps serving beside it, on SQLite (one lastrod per database) it steps aside meanwhile.
    const auto aside = D().SetServerAsideOnSqlite();
    const fs::path config = D().WriteConfig("kill.yaml", D().Dir() / "kill-access.log");
    const std::string instance = D().Instance() + "-kill";
    std::unique_ptr<Lastrod> server = Lastrod::Start(config);

    Load load;
    load.ports = {server->Port()};
    for (const CreatedKey& k : keys) {
        load.keys.push_back(k.secret);
    }
    load.targets = targets;
    std::atomic<bool> stop{false};
    std::atomic<std::size_t> answered{0};
    std::vector<Outcome> outcomes;
    std::thread clients([&] { outcomes = RunLoad(load, stop, &answered); });
    // About 1.5 s of load (and at least some answers), then the crash in the middle of it.
    const auto load_started = Clock::now();
    while ((Clock::now() - load_started < std::chrono::milliseconds(1500) || answered.load() < 200) &&
           Clock::now() - load_started < std::chrono::seconds(30)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    const std::optional<int> killed = server->Kill();
    stop = true;
    clients.join();
    ASSERT_EQ(killed, 128 + SIGKILL) << server->Process().Output();

    // What the crash left open: only the killed instance's reservations can be.
    std::size_t left_open = 0;
    for (const LedgerEntry& e : LedgerSince(D(), started)) {
        if (e.state == "reserved") {
            EXPECT_EQ(e.instance, instance) << e.request_id;
            ++left_open;
        }
    }

    // The same configuration again: the same instance name, which recovers its own.
    std::unique_ptr<Lastrod> restarted = Lastrod::Start(config);
    HttpClient after(restarted->Port());
    HttpResponse alive = after.Get("/v1/fundos?limit=1", keys[0].secret);
    EXPECT_EQ(alive.status, 200) << alive.Describe();
    EXPECT_EQ(alive.IntHeader("X-Credits-Charged"), 1) << alive.Describe();
    const std::optional<int> stopped = restarted->Terminate(std::chrono::seconds(15));
    EXPECT_EQ(stopped, 0) << restarted->Process().Output();
    const std::string start_output = restarted->Process().Output();
    const std::string recovery_line = "lastrod: refunded " + std::to_string(left_open) +
                                      " reservations left open by instance " + instance + "'s last run\n";
    if (left_open > 0) {
        EXPECT_NE(start_output.find(recovery_line), std::string::npos)
            << "expected: " << recovery_line << "\n"
            << start_output;
    } else {
        EXPECT_EQ(start_output.find("lastrod: refunded"), std::string::npos)
            << "nothing was open, nothing to report\n"
            << start_output;
    }

    const std::vector<LedgerEntry> ledger = LedgerSince(D(), started);
    const std::map<std::string, LedgerEntry> by_id = ById(ledger);
    EXPECT_EQ(by_id.size(), ledger.size()) << "a request id twice in the ledger";
    for (const LedgerEntry& e : ledger) {
        EXPECT_NE(e.state, "reserved") << e.request_id << " is still reserved after the restart";
    }

    std::map<std::int64_t, std::size_t> key_index;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        key_index[keys[i].id] = i;
    }
    std::vector<std::int64_t> received_charges(keys.size(), 0);
    std::vector<std::int64_t> unanswered(keys.size(), 0);
    std::set<std::string> received_ids;
    std::map<long, int> statuses;
    for (const Outcome& o : outcomes) {
        if (o.response.status == 0) {
            ++unanswered[o.key];  // sent when the server died (or after): may or may not be billed
            continue;
        }
        ++statuses[o.response.status];
        SCOPED_TRACE(o.response.Describe());
        const std::string id = o.RequestId();
        ASSERT_FALSE(id.empty());
        received_ids.insert(id);
        const std::int64_t charged = o.Charged();
        ASSERT_GE(charged, 0) << "X-Credits-Charged";
        received_charges[o.key] += charged;
        const auto entry = by_id.find(id);
        if (charged > 0) {
            ASSERT_NE(entry, by_id.end()) << "a charge the client saw is not in the ledger";
            EXPECT_EQ(entry->second.state, "charged");
            EXPECT_EQ(entry->second.price, charged);
            EXPECT_EQ(entry->second.status, static_cast<int>(o.response.status));
            EXPECT_EQ(entry->second.key_id, keys[o.key].id);
        } else if (entry != by_id.end()) {
            EXPECT_EQ(entry->second.state, "refunded") << "charged 0 for the client, but not refunded";
        }
        if (o.response.status == 200 || o.response.status == 404) {
            EXPECT_GT(charged, 0) << "200 and 404 are charged";
        }
        if (o.response.status == 422) {
            EXPECT_EQ(charged, 0);
            EXPECT_NE(entry, by_id.end()) << "a 422 is answered after its reservation";
        }
        if (o.response.status == 429) {
            EXPECT_EQ(entry, by_id.end()) << "a 429 reserves nothing";
        }
    }
    // The mix really ran: charged, refunded and refused calls all happened before the kill.
    EXPECT_GT(statuses[200], 0);
    EXPECT_GT(statuses[404], 0);
    EXPECT_GT(statuses[422], 0);
    EXPECT_GT(statuses[429], 0) << "the 60-credit key ran out";
    for (const auto& [status, count] : statuses) {
        EXPECT_TRUE(status == 200 || status == 404 || status == 422 || status == 429)
            << count << " answers of status " << status;
    }

    // Entries nobody saw an answer for can only be calls whose answer the crash swallowed.
    std::vector<std::int64_t> unseen_entries(keys.size(), 0);
    for (const LedgerEntry& e : ledger) {
        auto k = key_index.find(e.key_id);
        if (k != key_index.end() && !received_ids.count(e.request_id) &&
            e.request_id != alive.Header("X-Request-Id").value_or("")) {
            ++unseen_entries[k->second];
        }
    }
    for (std::size_t i = 0; i < keys.size(); ++i) {
        SCOPED_TRACE("key " + std::to_string(keys[i].id));
        const KeyUsage usage = UsageSince(D(), keys[i].id, started);
        ExpectSettledUsage(usage, keys[i].id);
        const std::int64_t after_restart = i == 0 ? 1 : 0;
        EXPECT_GE(usage.charged, received_charges[i] + after_restart) << "a charge the client saw is missing";
        EXPECT_LE(usage.charged, received_charges[i] + after_restart + 5 * unanswered[i])
            << "charged more than the answers received plus the unanswered calls can explain";
        EXPECT_LE(unseen_entries[i], unanswered[i]);
    }
}

// Two lastrods on one PostgreSQL: spending and per-minute counting are the database's, so the
// limits hold across instances. A SQLite database has one lastrod, which decides in memory
// (SecondLastrodOnOneSqliteDatabaseIsRefused).
class TwoInstances {
public:
    explicit TwoInstances(Deployment& d)
        : second_(Lastrod::Start(d.WriteConfig("second.yaml", d.Dir() / "second-access.log"))),
          ports_{d.Server().Port(), second_->Port()} {}
    ~TwoInstances() {
        if (!second_->Terminate(std::chrono::seconds(15))) {
            second_->Kill();
        }
    }
    const std::vector<std::uint16_t>& Ports() const { return ports_; }

private:
    std::unique_ptr<Lastrod> second_;
    std::vector<std::uint16_t> ports_;
};

TEST_P(BillingFaultsTest, SecondLastrodOnOneSqliteDatabaseIsRefused) {
    if (GetParam() != Backend::kSqlite) {
        GTEST_SKIP() << "several lastrods share PostgreSQL: TwoInstances* run there";
    }
    const fs::path config = D().WriteConfig("second.yaml", D().Dir() / "second-access.log");
    CommandOptions options;
    options.env = {"LASTRO_CONFIG=" + config.string()};
    options.timeout = std::chrono::seconds(30);
    const CommandResult r = RunCommand({BinaryPath("lastrod").string()}, options);
    ASSERT_FALSE(r.timed_out) << "a second lastrod serves the same SQLite database\n" << r.Describe();
    EXPECT_EQ(r.exit_code, 1) << r.Describe();
    EXPECT_NE(r.err.find("another lastrod serves the SQLite database"), std::string::npos) << r.Describe();
    EXPECT_NE(r.err.find("lastro.db.lastrod-lock"), std::string::npos) << r.Describe();
    EXPECT_NE(r.err.find("PostgreSQL"), std::string::npos) << r.Describe();
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line\n" << r.Describe();
    // The first one serves on, and the admin CLI is not locked out.
    EXPECT_EQ(D().Get("/health").status, 200);
    const CommandResult keys = D().Lastro({"keys", "list"});
    EXPECT_EQ(keys.exit_code, 0) << keys.Describe();
}

TEST_P(BillingFaultsTest, TwoInstancesNeverSpendMoreThanTheAllowance) {
    if (GetParam() == Backend::kSqlite) {
        GTEST_SKIP() << "one lastrod per SQLite database: SecondLastrodOnOneSqliteDatabaseIsRefused";
    }
    const std::time_t started = std::time(nullptr);
    constexpr std::int64_t kAllowance = 40;
    const CreatedKey key = D().CreateKeyWithId({kAllowance, 100000, "", ""});
    TwoInstances instances(D());

    Load load;
    load.ports = instances.Ports();
    load.keys = {key.secret};
    load.targets = {"/v1/fundos?limit=1"};  // price 1, always 200 while credits last
    load.threads = 4;
    load.calls_per_thread = 50;
    const std::vector<Outcome> outcomes = RunLoad(load, std::atomic<bool>{false});
    ASSERT_EQ(outcomes.size(), 200u);

    std::int64_t charged = 0;
    std::set<std::string> charged_ids;
    for (const Outcome& o : outcomes) {
        SCOPED_TRACE(o.response.Describe());
        if (o.response.status == 200) {
            EXPECT_EQ(o.Charged(), 1);
            charged += std::max<std::int64_t>(0, o.Charged());
            charged_ids.insert(o.RequestId());
        } else {
            EXPECT_TRUE(IsProblem(o.response, 429, kBaseUrl, "/v1/fundos", std::nullopt));
            EXPECT_EQ(o.Charged(), 0);
            if (o.response.status == 429) {
                EXPECT_EQ(o.response.IntHeader("X-Credits-Remaining"), 0);
                EXPECT_EQ(Str(AsObject(o.response.Json()), "detail").find("per-minute"), std::string::npos)
                    << "refused for credits, not for the minute";
            }
        }
    }
    EXPECT_LE(charged, kAllowance) << "spent beyond the allowance";
    EXPECT_EQ(charged, kAllowance) << "200 calls for 40 credits use them all";

    const std::vector<LedgerEntry> ledger = ReadLedger(D(), UtcMonth(started), key.id);
    std::int64_t ledger_charged = 0;
    std::set<std::string> ledger_ids;
    for (const LedgerEntry& e : ledger) {
        EXPECT_EQ(e.state, "charged") << e.request_id;
        EXPECT_TRUE(e.instance == D().Instance() || e.instance == D().Instance() + "-second") << e.instance;
        ledger_charged += e.state == "charged" ? e.price : 0;
        ledger_ids.insert(e.request_id);
    }
    EXPECT_EQ(ledger_ids, charged_ids) << "the ledger holds exactly the calls answered 200";
    EXPECT_EQ(ledger_charged, charged);
    KeyUsage usage = UsageSince(D(), key.id, started);
    ExpectSettledUsage(usage, key.id);
    EXPECT_EQ(usage.charged, charged);
    EXPECT_LE(usage.charged + usage.reserved + usage.leased, kAllowance) << "leased beyond the allowance";
    // Idle, each instance gives back what it leased.
    usage = WaitUntilNothingLeased(D(), key.id, started, std::chrono::seconds(20));
    EXPECT_EQ(usage.leased, 0) << "credits left leased after the instances went idle";
    ExpectSettledUsage(usage, key.id);
    EXPECT_EQ(usage.charged, charged);
}

// An instance killed while it holds a lease: nobody spends its credits until the lease's
// expiry (the database's clock), then another instance gives them back to the month. What the
// lease had spent stays charged, as the ledger has it.
TEST_P(BillingFaultsTest, AKilledInstancesLeaseReturnsAfterItsExpiry) {
    if (GetParam() == Backend::kSqlite) {
        GTEST_SKIP() << "leases are PostgreSQL's (several instances)";
    }
    const std::time_t started = std::time(nullptr);
    constexpr std::int64_t kAllowance = 1000;
    const CreatedKey key = D().CreateKeyWithId({kAllowance, 100000, "", ""});
    std::unique_ptr<Lastrod> leasing = Lastrod::Start(
        D().WriteConfig("leasing.yaml", D().Dir() / "leasing-access.log", "billing:\n  lease_seconds: 10\n"));
    HttpClient http(leasing->Port());
    for (int i = 0; i < 5; ++i) {
        const HttpResponse r = http.Get("/v1/fundos?limit=1", key.secret);
        ASSERT_EQ(r.status, 200) << r.Describe();
        EXPECT_EQ(r.IntHeader("X-Credits-Charged"), 1) << r.Describe();
        EXPECT_EQ(r.IntHeader("X-Credits-Remaining"), kAllowance - 1 - i) << r.Describe();
    }
    const KeyUsage held = UsageSince(D(), key.id, started);
    EXPECT_GT(held.leased, 0) << "the instance holds a lease";
    EXPECT_EQ(held.charged, 5) << "what a lease spent counts as charged at once";
    EXPECT_EQ(held.ledger_charged, 5);
    EXPECT_LE(held.charged + held.reserved + held.leased, kAllowance);
    const auto killed_at = Clock::now();
    leasing->Kill();

    const KeyUsage after = WaitUntilNothingLeased(D(), key.id, started, std::chrono::seconds(45));
    EXPECT_EQ(after.leased, 0) << "the killed instance's lease never returned";
    EXPECT_GE(Clock::now() - killed_at, std::chrono::seconds(5)) << "returned before its expiry";
    ExpectSettledUsage(after, key.id);
    EXPECT_EQ(after.charged, 5);
    // The credits are the month's again: the other instance leases and spends them.
    const HttpResponse r = D().Get("/v1/fundos?limit=1", key.secret);
    ASSERT_EQ(r.status, 200) << r.Describe();
    EXPECT_EQ(r.IntHeader("X-Credits-Remaining"), kAllowance - 6) << r.Describe();
}

// A TCP relay between one lastrod and PostgreSQL that, while the file `cut` exists, neither
// reads nor forwards anything: the instance is cut off, its statements held on the way (a
// partition, not a refusal), and delivered late once the file goes, as a network that heals
// delivers them.
class CuttableRelay {
public:
    CuttableRelay(std::uint16_t upstream, fs::path cut) : cut_(std::move(cut)) {
        fs::remove(cut_);
        const std::string script =
            "import os, select, socket, sys, threading, time\n"
            "up, cut = int(sys.argv[1]), sys.argv[2]\n"
            "def hold():\n"
            "    while os.path.exists(cut):\n"
            "        time.sleep(0.02)\n"
            "def pipe(a, b):\n"
            "    try:\n"
            "        while True:\n"
            "            hold()\n"
            "            if not select.select([a], [], [], 0.05)[0]:\n"
            "                continue\n"
            "            data = a.recv(65536)\n"
            "            if not data:\n"
            "                break\n"
            "            hold()\n"
            "            b.sendall(data)\n"
            "    except OSError:\n"
            "        pass\n"
            "    for s in (a, b):\n"
            "        try:\n"
            "            s.shutdown(socket.SHUT_WR)\n"
            "        except OSError:\n"
            "            pass\n"
            "def serve(c):\n"
            "    try:\n"
            "        u = socket.create_connection(('127.0.0.1', up))\n"
            "    except OSError:\n"
            "        c.close()\n"
            "        return\n"
            "    threading.Thread(target=pipe, args=(c, u), daemon=True).start()\n"
            "    threading.Thread(target=pipe, args=(u, c), daemon=True).start()\n"
            "s = socket.socket()\n"
            "s.bind(('127.0.0.1', 0))\n"
            "s.listen(64)\n"
            "print('PORT', s.getsockname()[1], flush=True)\n"
            "while True:\n"
            "    threading.Thread(target=serve, args=(s.accept()[0],), daemon=True).start()\n";
        relay_ =
            ChildProcess::Start({"/usr/bin/python3", "-c", script, std::to_string(upstream), cut_.string()});
        const std::optional<std::string> line = relay_->WaitForLine(
            [](std::string_view l) { return l.starts_with("PORT "); }, std::chrono::seconds(10));
        if (!line) {
            throw std::runtime_error("the relay did not start:\n" + relay_->Output());
        }
        port_ = static_cast<std::uint16_t>(std::stoi(line->substr(5)));
    }
    ~CuttableRelay() {
        Heal();
        relay_->Kill();
    }
    std::uint16_t Port() const { return port_; }
    void Cut() { std::ofstream(cut_).flush(); }
    void Heal() { fs::remove(cut_); }

private:
    fs::path cut_;
    std::unique_ptr<ChildProcess> relay_;
    std::uint16_t port_ = 0;
};

// The port of the PostgreSQL conninfo (a URI, "postgresql://user@127.0.0.1:PORT/db") in
// `config`, and `config` with it replaced by `port` and `query` added to the URI.
std::uint16_t ConninfoPort(const fs::path& config) {
    std::ifstream in(config);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t at = text.find("@127.0.0.1:");
    if (at == std::string::npos) {
        throw std::runtime_error("no @127.0.0.1:PORT in " + config.string());
    }
    return static_cast<std::uint16_t>(std::stoi(text.substr(at + 11)));
}
fs::path WithConninfoPort(const fs::path& config, std::uint16_t port, const std::string& query) {
    std::ifstream in(config);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t digits = text.find("@127.0.0.1:") + 11;
    const std::size_t end = text.find_first_not_of("0123456789", digits);
    text.replace(digits, end - digits, std::to_string(port));
    const std::size_t close = text.find('"', digits);  // the end of the quoted conninfo
    text.insert(close, "?" + query);
    std::ofstream(config) << text;
    return config;
}

enum class Cut {
    kNetwork,  // its traffic to PostgreSQL held by the relay, delivered when the cut heals
    kStall,    // the whole process stopped (SIGSTOP): calls admitted before settle after it
};

// One instance cut off while its calls run, for longer than its lease lives: another instance
// reclaims the lease at its expiry and spends what the month has left; what the cut-off
// instance settles late (held statements, calls admitted before the cut) is charged within its
// lease or refunded. The allowance is never exceeded, and the ledger is exactly the charges
// the clients saw (docs/billing.md, "Cut off while calls run").
void CutOffWhileCallsRun(Deployment& d, Cut how) {
    const std::time_t started = std::time(nullptr);
    constexpr std::int64_t kAllowance = 300;
    const CreatedKey key = d.CreateKeyWithId({kAllowance, 1000000, "", ""});
    const std::string lease = "billing:\n  lease_seconds: 10\n";
    const fs::path cut_config = d.WriteConfig("cut.yaml", d.Dir() / "cut-access.log", lease);
    CuttableRelay relay(ConninfoPort(cut_config), d.Dir() / "relay-cut");
    // A transaction the cut leaves open (a lease being taken holds the key's usage row) ends
    // on the server's side as deploy.md advises, instead of holding the other instance's calls.
    std::unique_ptr<Lastrod> cut_off = Lastrod::Start(WithConninfoPort(
        cut_config, relay.Port(), "options=-c%20idle_in_transaction_session_timeout%3D2000"));
    std::unique_ptr<Lastrod> other =
        Lastrod::Start(d.WriteConfig("other.yaml", d.Dir() / "other-access.log", lease));

    Load load;
    load.ports = {cut_off->Port()};
    load.keys = {key.secret};
    load.targets = {"/v1/fundos?limit=1"};
    load.threads = 6;
    std::atomic<bool> stop{false};
    std::atomic<std::size_t> answered{0};
    std::vector<Outcome> outcomes;
    const auto wait_for = [&](std::size_t target, std::chrono::seconds bound) {
        const auto deadline = Clock::now() + bound;
        while (answered.load() < target && Clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    };
    std::thread clients([&] { outcomes = RunLoad(load, stop, &answered); });
    wait_for(30, std::chrono::seconds(30));
    if (how == Cut::kNetwork) {
        relay.Cut();  // it stops admitting (503) once its lease's validity passes
    } else {
        cut_off->Process().Signal(SIGSTOP);
    }
    // Past the lease's expiry (10 s after its last renewal, by the database's clock) and a
    // reclaim by the other instance (every 2.5 s).
    std::this_thread::sleep_for(std::chrono::seconds(16));
    // The other instance spends what the month has left, the reclaimed lease included.
    std::vector<Outcome> spent;
    {
        HttpClient http(other->Port());
        const auto bound = Clock::now() + std::chrono::seconds(60);
        for (int i = 0; i < kAllowance + 20 && Clock::now() < bound; ++i) {
            Outcome o;
            o.response = http.Get("/v1/fundos?limit=1", key.secret);
            const int status = o.response.status;
            spent.push_back(std::move(o));
            if (status == 429) {
                break;
            }
        }
    }
    if (how == Cut::kNetwork) {
        relay.Heal();
    } else {
        cut_off->Process().Signal(SIGCONT);
    }
    wait_for(answered.load() + 30, std::chrono::seconds(30));
    stop = true;
    clients.join();
    outcomes.insert(outcomes.end(), std::make_move_iterator(spent.begin()),
                    std::make_move_iterator(spent.end()));

    std::set<std::string> seen_charged;
    for (const Outcome& o : outcomes) {
        SCOPED_TRACE(o.response.Describe());
        const int status = o.response.status;
        EXPECT_TRUE(status == 200 || status == 429 || status == 503) << "unexpected status";
        if (status == 200 && o.Charged() == 1) {
            seen_charged.insert(o.RequestId());
        } else {
            EXPECT_NE(o.Charged(), 1) << "a charge on a call not served";
        }
    }
    EXPECT_TRUE(std::any_of(spent.begin(), spent.end(), [](const Outcome& o) {
        return o.response.status == 429;
    })) << "the other instance did not reach the end of the allowance";

    const auto deadline = Clock::now() + std::chrono::seconds(45);
    KeyUsage usage = UsageSince(d, key.id, started);
    while ((usage.reserved != 0 || usage.ledger_reserved != 0 || usage.leased != 0) &&
           Clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
        usage = UsageSince(d, key.id, started);
    }
    ExpectSettledUsage(usage, key.id);
    EXPECT_LE(usage.charged, kAllowance) << "spent beyond the allowance";
    EXPECT_EQ(usage.leased, 0) << "credits left leased";
    std::set<std::string> ledger_charged;
    for (const LedgerEntry& e : LedgerSince(d, started)) {
        if (e.key_id == key.id && e.state == "charged") {
            ledger_charged.insert(e.request_id);
        }
    }
    EXPECT_EQ(ledger_charged, seen_charged) << "the ledger's charges are not those the clients saw";
    if (!other->Terminate(std::chrono::seconds(15))) {
        other->Kill();
    }
    if (!cut_off->Terminate(std::chrono::seconds(15))) {
        cut_off->Kill();
    }
}

TEST_P(BillingFaultsTest, AnInstanceCutOffPastItsLeaseNeverSpendsBeyondTheAllowance) {
    if (GetParam() == Backend::kSqlite) {
        GTEST_SKIP() << "leases are PostgreSQL's (several instances)";
    }
    CutOffWhileCallsRun(D(), Cut::kNetwork);
}

TEST_P(BillingFaultsTest, AnInstanceStalledPastItsLeaseNeverSpendsBeyondTheAllowance) {
    if (GetParam() == Backend::kSqlite) {
        GTEST_SKIP() << "leases are PostgreSQL's (several instances)";
    }
    CutOffWhileCallsRun(D(), Cut::kStall);
}

// PostgreSQL under two instances' load: its connections cut mid-transaction
// (pg_terminate_backend), then the server stopped and started again. Every call is answered 200
// and charged, or 503 and not; both instances serve again without a restart; the ledger holds
// exactly the 200s, nothing left reserved.
TEST_P(BillingFaultsTest, PostgresCutAndRestartedUnderTwoInstancesLeavesTheLedgerExact) {
    if (GetParam() == Backend::kSqlite) {
        GTEST_SKIP() << "several instances share PostgreSQL only";
    }
    const std::time_t started = std::time(nullptr);
    const CreatedKey key = D().CreateKeyWithId({1000000, 1000000, "", ""});
    TwoInstances instances(D());
    Load load;
    load.ports = instances.Ports();
    load.keys = {key.secret};
    load.targets = {"/v1/fundos?limit=1"};
    load.threads = 4;
    std::atomic<bool> stop{false};
    std::atomic<std::size_t> answered{0};
    std::vector<Outcome> outcomes;
    std::thread clients([&] { outcomes = RunLoad(load, stop, &answered); });
    const auto wait_for_answers = [&](std::size_t more) {
        const std::size_t target = answered.load() + more;
        const auto deadline = Clock::now() + std::chrono::seconds(30);
        while (answered.load() < target && Clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    };
    wait_for_answers(100);
    PostgresCluster& cluster = SharedResources::Get().Postgres();
    CommandOptions psql;
    psql.timeout = std::chrono::seconds(20);
    for (int cut = 0; cut < 3; ++cut) {
        const CommandResult r =
            RunCommand({(PostgresCluster::BinDir() / "psql").string(), cluster.Conninfo("postgres"), "-qAtc",
                        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname LIKE "
                        "'lastro_faults%' AND pid <> pg_backend_pid()"},
                       psql);
        ASSERT_EQ(r.exit_code, 0) << r.Describe();
        wait_for_answers(50);
    }
    {
        PausedPostgres paused(cluster);
        wait_for_answers(20);  // answered 503 meanwhile
        paused.Resume();
    }
    wait_for_answers(200);
    stop = true;
    clients.join();

    std::set<std::string> served;
    std::size_t unavailable = 0;
    for (const Outcome& o : outcomes) {
        SCOPED_TRACE(o.response.Describe());
        if (o.response.status == 200) {
            EXPECT_EQ(o.Charged(), 1);
            served.insert(o.RequestId());
        } else {
            EXPECT_TRUE(IsProblem(o.response, 503, kBaseUrl, "/v1/fundos", std::nullopt));
            EXPECT_EQ(o.Charged(), 0);
            ++unavailable;
        }
    }
    EXPECT_GT(unavailable, 0u) << "the outage was seen";
    // Both instances serve again, without a restart.
    for (const std::uint16_t port : instances.Ports()) {
        HttpClient http(port);
        EXPECT_EQ(http.Get("/v1/fundos?limit=1", key.secret).status, 200) << "port " << port;
    }
    const std::size_t served_after = served.size() + instances.Ports().size();

    // Once the refunds owed are written (bounded), the ledger is exactly the 200s.
    const auto deadline = Clock::now() + std::chrono::seconds(30);
    KeyUsage usage = UsageSince(D(), key.id, started);
    while ((usage.reserved != 0 || usage.ledger_reserved != 0) && Clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        usage = UsageSince(D(), key.id, started);
    }
    ExpectSettledUsage(usage, key.id);
    EXPECT_EQ(usage.charged, static_cast<std::int64_t>(served_after));
    std::set<std::string> charged;
    for (const LedgerEntry& e : LedgerSince(D(), started)) {
        if (e.key_id == key.id && e.state == "charged") {
            charged.insert(e.request_id);
        }
    }
    for (const std::string& id : served) {
        EXPECT_TRUE(charged.contains(id)) << id << " was answered 200 but is not charged";
    }
    EXPECT_EQ(charged.size(), served_after) << "only the 200s are charged";
}

// On PostgreSQL a batch's ledger statements are written whole, values quoted by lastrod
// (billing/credit_ledger.cpp): text with quotes and a semicolon, here the instance name, must
// reach the ledger as given, and the reservation it is written with must settle.
TEST_P(BillingFaultsTest, AnInstanceNameWithQuotesReachesTheLedgerAsGiven) {
    const auto aside = D().SetServerAsideOnSqlite();
    const std::string instance = D().Instance() + "-o'quo\"ted;--";
    const fs::path config = D().WriteConfig("quoted.yaml", D().Dir() / "quoted-access.log", "", instance);
    std::unique_ptr<Lastrod> server = Lastrod::Start(config);
    HttpClient http(server->Port());
    const std::time_t started = std::time(nullptr);
    const CreatedKey key = D().CreateKeyWithId({1000, 100000, "", ""});
    const HttpResponse charged = http.Get("/v1/fundos?limit=1", key.secret);
    ASSERT_EQ(charged.status, 200) << charged.Describe();
    const HttpResponse refunded = http.Get("/v1/fundos?limit=0", key.secret);
    ASSERT_EQ(refunded.status, 422) << refunded.Describe();
    EXPECT_EQ(server->Terminate(std::chrono::seconds(15)), 0) << server->Process().Output();

    const std::map<std::string, LedgerEntry> ledger = ById(ReadLedger(D(), UtcMonth(started), key.id));
    ASSERT_EQ(ledger.size(), 2u);
    const auto first = ledger.find(charged.Header("X-Request-Id").value_or(""));
    const auto second = ledger.find(refunded.Header("X-Request-Id").value_or(""));
    ASSERT_NE(first, ledger.end());
    ASSERT_NE(second, ledger.end());
    EXPECT_EQ(first->second.instance, instance);
    EXPECT_EQ(first->second.state, "charged");
    EXPECT_EQ(second->second.instance, instance);
    EXPECT_EQ(second->second.state, "refunded");
    EXPECT_EQ(UsageSince(D(), key.id, started).charged, 1);
}

TEST_P(BillingFaultsTest, TwoInstancesShareOnePerMinuteWindow) {
    if (GetParam() == Backend::kSqlite) {
        GTEST_SKIP() << "one lastrod per SQLite database: SecondLastrodOnOneSqliteDatabaseIsRefused";
    }
    constexpr std::int64_t kPerMinute = 30;
    const CreatedKey key = D().CreateKeyWithId({1000000, kPerMinute, "", ""});
    TwoInstances instances(D());

    Load load;
    load.ports = instances.Ports();
    load.keys = {key.secret};
    load.targets = {"/v1/fundos?limit=1"};
    load.threads = 4;
    load.calls_per_thread = 25;
    AvoidMinuteBoundary();
    const std::vector<Outcome> outcomes = RunLoad(load, std::atomic<bool>{false});
    ASSERT_EQ(outcomes.size(), 100u);

    std::int64_t admitted = 0;
    const std::optional<std::int64_t> window = outcomes.front().response.IntHeader("X-RateLimit-Reset");
    for (const Outcome& o : outcomes) {
        SCOPED_TRACE(o.response.Describe());
        ASSERT_EQ(o.response.IntHeader("X-RateLimit-Reset"), window) << "all calls in one minute window";
        if (o.response.status != 429) {
            ++admitted;
            EXPECT_EQ(o.response.status, 200);
            continue;
        }
        EXPECT_TRUE(IsProblem(o.response, 429, kBaseUrl, "/v1/fundos", std::nullopt));
        EXPECT_NE(Str(AsObject(o.response.Json()), "detail").find("per-minute"), std::string::npos);
        EXPECT_EQ(o.response.IntHeader("X-RateLimit-Remaining"), 0);
        EXPECT_EQ(o.Charged(), 0);
        const std::optional<std::int64_t> retry = o.response.IntHeader("Retry-After");
        ASSERT_TRUE(retry) << "Retry-After";
        EXPECT_GE(*retry, 1);
        EXPECT_LE(*retry, 60);
    }
    // Never more than the limit. An instance may be refused early by at most the tokens the
    // other holds unused (docs/billing.md); here each keeps calling until its own are spent,
    // so together they use the window whole.
    EXPECT_EQ(admitted, kPerMinute) << "the two instances count one window";
}

// A file system of our own for a SQLite database, so that a test can take it away: a tmpfs
// (root only). Unmounted when the guard goes.
class TmpfsMount {
public:
    // Empty on success, else why it could not be mounted.
    std::string Mount(const fs::path& where, const std::string& size) {
        fs::create_directories(where);
        if (geteuid() != 0) {
            return "mounting a tmpfs needs root";
        }
        const std::string options = "size=" + size + ",mode=0755";
        if (mount("tmpfs", where.c_str(), "tmpfs", 0, options.c_str()) != 0) {
            return std::string("mount -t tmpfs ") + where.string() + ": " + std::strerror(errno);
        }
        where_ = where;
        return "";
    }
    ~TmpfsMount() {
        if (!where_.empty()) {
            umount2(where_.c_str(), MNT_DETACH);
        }
    }

private:
    fs::path where_;
};

// What the outage checks share, whatever took the database away.
struct OutageProbe {
    HttpClient& http;
    std::string key;
    std::vector<Outcome> unavailable;  // the 503s
    std::int64_t served = 0;           // 200s during the test (charged 1 each)

    // Calls (bounded) until `wanted` 503s; every answer must be 503 or, when `may_serve`
    // (a full disk fails a write only when it needs a new page), 200 and charged.
    void Expect503s(int wanted, bool may_serve, std::chrono::seconds bound) {
        const auto deadline = Clock::now() + bound;
        while (static_cast<int>(unavailable.size()) < wanted && Clock::now() < deadline) {
            Outcome o;
            o.target = "/v1/fundos?limit=1";
            o.response = http.Get(o.target, key);
            if (o.response.status == 200 && may_serve) {
                ++served;
                if (o.Charged() != 1) {
                    ADD_FAILURE() << "served while the database cannot be written, but not charged\n"
                                  << o.response.Describe();
                    return;
                }
                continue;
            }
            SCOPED_TRACE(o.response.Describe());
            EXPECT_TRUE(IsProblem(o.response, 503, kBaseUrl, "/v1/fundos", std::nullopt));
            EXPECT_TRUE(HasBillingHeaders(o.response));
            EXPECT_EQ(o.Charged(), 0);
            EXPECT_EQ(o.response.Header("Retry-After"), "1");
            unavailable.push_back(std::move(o));
        }
        EXPECT_EQ(static_cast<int>(unavailable.size()), wanted) << "503s within " << bound.count() << " s";
    }

    // Calls (bounded) until one is served again.
    void ExpectRecovery(std::chrono::seconds bound) {
        const auto deadline = Clock::now() + bound;
        HttpResponse r = http.Get("/v1/fundos?limit=1", key);
        while (r.status != 200 && Clock::now() < deadline) {
            EXPECT_EQ(r.status, 503) << r.Describe();
            EXPECT_EQ(r.IntHeader("X-Credits-Charged"), 0) << r.Describe();
            unavailable.push_back(Outcome{0, "/v1/fundos?limit=1", r});
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            r = http.Get("/v1/fundos?limit=1", key);
        }
        ASSERT_EQ(r.status, 200) << "not served again within " << bound.count() << " s\n" << r.Describe();
        EXPECT_EQ(r.IntHeader("X-Credits-Charged"), 1) << r.Describe();
        ++served;
    }

    // The 503s cost nothing: once the writer has paid back what it owes (bounded), their ids
    // are absent from the ledger or refunded, and the key's charges are exactly the 200s.
    void ExpectNothingCharged(const Deployment& d, std::int64_t key_id, std::time_t started) {
        const auto deadline = Clock::now() + std::chrono::seconds(20);
        KeyUsage usage = UsageSince(d, key_id, started);
        while ((usage.reserved != 0 || usage.ledger_reserved != 0) && Clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            usage = UsageSince(d, key_id, started);
        }
        ExpectSettledUsage(usage, key_id);
        EXPECT_EQ(usage.charged, served) << "only the calls served 200 are charged";
        const std::map<std::string, LedgerEntry> by_id = ById(LedgerSince(d, started));
        for (const Outcome& o : unavailable) {
            const auto entry = by_id.find(o.RequestId());
            if (entry != by_id.end()) {
                EXPECT_EQ(entry->second.state, "refunded") << o.response.Describe();
            }
        }
    }
};

void ExpectHealthUnavailable(HttpClient& http) {
    const HttpResponse health = WaitForHealth(http, "unavailable", std::chrono::seconds(5));
    EXPECT_EQ(health.status, 200) << health.Describe();
    EXPECT_EQ(DatabaseField(health), "unavailable") << health.Describe();
    EXPECT_EQ(health.Json().at("status"), "degraded") << health.Describe();
}

void ExpectHealthOk(HttpClient& http) {
    const HttpResponse health = WaitForHealth(http, "ok", std::chrono::seconds(5));
    EXPECT_EQ(health.status, 200) << health.Describe();
    EXPECT_EQ(DatabaseField(health), "ok") << health.Describe();
}

// A key served once, then `outage` (which takes the database away and brings it back, calling
// through `probe`); afterwards /health is ok and only the 200s are charged.
void AcrossAnOutage(Deployment& d, const std::function<void(OutageProbe&)>& outage) {
    const std::time_t started = std::time(nullptr);
    const CreatedKey key = d.CreateKeyWithId({1000, 100000, "", ""});
    OutageProbe probe{d.Http(), key.secret, {}, 0};
    ASSERT_EQ(d.Get("/v1/fundos?limit=1", key.secret).status, 200);
    ++probe.served;
    outage(probe);
    ExpectHealthOk(d.Http());
    probe.ExpectNothingCharged(d, key.id, started);
}

void PostgresAway(Deployment& d) {
    AcrossAnOutage(d, [&](OutageProbe& probe) {
        PausedPostgres paused(SharedResources::Get().Postgres());
        probe.Expect503s(5, false, std::chrono::seconds(20));
        ExpectHealthUnavailable(d.Http());
        paused.Resume();
        probe.ExpectRecovery(std::chrono::seconds(20));
    });
}

// PostgreSQL stops answering without closing anything (every server process stopped: a hung
// server or disk, a partition after the kernel acknowledged): each call is answered 503 within
// the billing write timeout plus a connect timeout, not held until the client gives up.
void PostgresFrozen(Deployment& d) {
    AcrossAnOutage(d, [&](OutageProbe& probe) {
        FrozenPostgres frozen(SharedResources::Get().Postgres());
        for (int i = 0; i < 3; ++i) {
            const auto asked = Clock::now();
            probe.Expect503s(i + 1, false, std::chrono::seconds(60));
            // billing.write_timeout_ms (2 s here) and libpq's connect_timeout (2 s) at most,
            // well under the client-facing timeouts (docs/operations.md, "Faults").
            EXPECT_LT(Clock::now() - asked, std::chrono::seconds(8)) << "call " << i;
        }
        ExpectHealthUnavailable(d.Http());
        frozen.Thaw();
        probe.ExpectRecovery(std::chrono::seconds(30));
    });
}

// Fills the file system holding `dir` with one file; returns its path. Writes until ENOSPC.
fs::path FillUp(const fs::path& dir) {
    const fs::path filler = dir / "filler";
    std::ofstream out(filler, std::ios::binary | std::ios::trunc);
    const std::string block(1 << 20, 'x');
    for (int i = 0; i < 100000 && out.write(block.data(), static_cast<std::streamsize>(block.size())); ++i) {
    }
    out.close();
    return filler;
}

void SqliteAway(const fs::path& mount_point) {
    TmpfsMount tmpfs;
    if (const std::string why = tmpfs.Mount(mount_point, "256m"); !why.empty()) {
        GTEST_SKIP() << "the SQLite outage needs a tmpfs of its own: " << why;
    }
    const std::time_t started = std::time(nullptr);
    DeploymentOptions options = HostOptions();
    options.sqlite_dir = mount_point;
    Deployment d(Backend::kSqlite, "outage", options);
    const CreatedKey key = d.CreateKeyWithId({1000, 100000, "", ""});
    OutageProbe probe{d.Http(), key.secret, {}, 0};
    ASSERT_EQ(d.Get("/v1/fundos?limit=1", key.secret).status, 200);
    ++probe.served;

    // The database's file system runs full. (`mount -o remount,ro` would be the other way to
    // take it away, but Linux refuses it with EBUSY while a file on it is open for writing,
    // as lastrod's database always is.)
    const fs::path filler = FillUp(mount_point);
    struct statvfs space{};
    ASSERT_EQ(statvfs(mount_point.c_str(), &space), 0) << std::strerror(errno);
    ASSERT_EQ(space.f_bavail, 0u) << "the tmpfs is full";
    probe.Expect503s(5, true, std::chrono::seconds(20));
    ExpectHealthUnavailable(d.Http());
    // With no call after the 503s, the writer's probe (once a second while the database is
    // away) runs alone: it must not take a commit that wrote nothing for the database's return.
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    const HttpResponse still = d.Http().Get("/health");
    EXPECT_EQ(DatabaseField(still), "unavailable")
        << "three probes later, nothing written: " << still.Describe();
    fs::remove(filler);
    probe.ExpectRecovery(std::chrono::seconds(20));
    ExpectHealthOk(d.Http());
    probe.ExpectNothingCharged(d, key.id, started);
}

// Another process holds the write lock of one SQLite file until told (the file `release`
// appears), at most a minute.
class SqliteLockHolder {
public:
    SqliteLockHolder(const fs::path& database, const fs::path& release) : release_(release) {
        fs::remove(release_);
        const std::string script =
            "import os, sqlite3, sys, time\n"
            "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "c.execute('BEGIN IMMEDIATE')\n"
            "print('LOCKED', flush=True)\n"
            "end = time.time() + 60\n"
            "while not os.path.exists(sys.argv[2]) and time.time() < end:\n"
            "    time.sleep(0.05)\n"
            "c.execute('ROLLBACK')\n";
        holder_ =
            ChildProcess::Start({"/usr/bin/python3", "-c", script, database.string(), release_.string()});
        if (!holder_->WaitForLine([](std::string_view l) { return l == "LOCKED"; },
                                  std::chrono::seconds(10))) {
            throw std::runtime_error("the lock holder did not lock " + database.string() + ":\n" +
                                     holder_->Output());
        }
    }
    ~SqliteLockHolder() { Release(); }
    void Release() {
        std::ofstream(release_).flush();
        holder_->WaitForExit(std::chrono::seconds(10));
    }

private:
    fs::path release_;
    std::unique_ptr<ChildProcess> holder_;
};

// Another process holds the write lock of billing's SQLite file (a backup tool, a stray `sqlite3`
// shell): each call is answered 503 with Retry-After once billing.write_timeout_ms has passed,
// well before the connection's own timeout (a 408 without headers, before), and costs nothing;
// /health says degraded; service resumes when the lock goes.
void SqliteLockedElsewhere(Deployment& d) {
    const std::time_t started = std::time(nullptr);
    const CreatedKey key = d.CreateKeyWithId({1000, 100000, "", ""});
    OutageProbe probe{d.Http(), key.secret, {}, 0};
    ASSERT_EQ(d.Get("/v1/fundos?limit=1", key.secret).status, 200);
    ++probe.served;
    SqliteLockHolder holder(d.Dir() / "lastro-billing.db", d.Dir() / "release-the-lock");
    probe.Expect503s(3, false, std::chrono::seconds(30));
    ExpectHealthUnavailable(d.Http());
    holder.Release();
    probe.ExpectRecovery(std::chrono::seconds(20));
    ExpectHealthOk(d.Http());
    probe.ExpectNothingCharged(d, key.id, started);
}

TEST_P(BillingFaultsTest, AWriteLockHeldElsewhereIs503WithinTheWriteTimeoutAndUncharged) {
    if (GetParam() == Backend::kPostgres) {
        GTEST_SKIP() << "SQLite's write lock; PostgreSQL locks rows (DatabaseAwayIs503...)";
    }
    SqliteLockedElsewhere(D());
}

// An ingest holds the data file's write lock for as long as it writes a release (seconds for a
// full-size month, a minute for a first load of ten years): billing has a file of its own, so
// billed calls go on being served and charged meanwhile, and /health stays ok. (With the ledger
// in the data file they were answered 503 after billing.write_timeout_ms.)
TEST_P(BillingFaultsTest, AnIngestsWriteLockOnTheDataHoldsNoBilledCall) {
    if (GetParam() == Backend::kPostgres) {
        GTEST_SKIP() << "SQLite's write lock; on PostgreSQL an ingest locks only its own rows";
    }
    const std::time_t started = std::time(nullptr);
    const CreatedKey key = D().CreateKeyWithId({1000000, 1000000, "", ""});
    SqliteLockHolder holder(D().Dir() / "lastro.db", D().Dir() / "release-the-data-lock");
    // Twice billing.write_timeout_ms (2 s) under the lock.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(4);
    int served = 0;
    while (std::chrono::steady_clock::now() < until) {
        const HttpResponse r = D().Get("/v1/fundos?limit=1", key.secret);
        ASSERT_EQ(r.status, 200) << r.Describe();
        ASSERT_EQ(r.IntHeader("X-Credits-Charged"), 1) << r.Describe();
        ++served;
    }
    ExpectHealthOk(D().Http());
    holder.Release();
    ASSERT_GE(served, 2);
    const KeyUsage usage = UsageSince(D(), key.id, started);
    ExpectSettledUsage(usage, key.id);
    EXPECT_EQ(usage.charged, served);
}

// The access log's disk runs full: its lines are lost, counted and said on stderr, the calls
// are served and charged as ever, and the log takes whole lines again once space returns.
void AccessLogDiskFull(Deployment& d) {
    TmpfsMount tmpfs;
    const fs::path mount_point = d.Dir() / "log-tmpfs";
    if (const std::string why = tmpfs.Mount(mount_point, "1m"); !why.empty()) {
        GTEST_SKIP() << "the full access log needs a tmpfs of its own: " << why;
    }
    const auto aside = d.SetServerAsideOnSqlite();
    const fs::path log = mount_point / "access.log";
    const fs::path config = d.WriteConfig("full-log.yaml", log, "metrics:\n  listen: 127.0.0.1:0\n");
    std::unique_ptr<Lastrod> server = Lastrod::Start(config);
    HttpClient metrics(MetricsPort(*server));
    HttpClient api(server->Port());
    const std::string key = d.RoomyKey();
    ASSERT_EQ(api.Get("/v1/fundos?limit=1", key).status, 200);

    const fs::path filler = FillUp(mount_point);
    for (int i = 0; i < 20; ++i) {
        const HttpResponse r = api.Get("/v1/fundos?limit=1", key);
        ASSERT_EQ(r.status, 200) << r.Describe();
        EXPECT_EQ(r.IntHeader("X-Credits-Charged"), 1) << r.Describe();
    }
    const std::map<std::string, double> scraped = MetricSamples(metrics.Get("/metrics").body);
    ASSERT_TRUE(scraped.contains("lastro_access_log_lines_lost_total"));
    EXPECT_GE(scraped.at("lastro_access_log_lines_lost_total"), 1.0);
    EXPECT_NE(server->Process().Output().find("lastrod: access log: "), std::string::npos)
        << server->Process().Output();

    fs::remove(filler);
    HttpResponse last;
    for (int i = 0; i < 3; ++i) {
        last = api.Get("/v1/fundos?limit=1", key);
        ASSERT_EQ(last.status, 200) << last.Describe();
    }
    // The newest line is whole JSON, and it is the last call's.
    const std::string text = ReadFile(log);
    ASSERT_FALSE(text.empty());
    ASSERT_EQ(text.back(), '\n');
    const std::size_t start = text.rfind('\n', text.size() - 2);
    const std::string newest = text.substr(start == std::string::npos ? 0 : start + 1);
    boost::system::error_code ec;
    const boost::json::value parsed = boost::json::parse(newest, ec);
    ASSERT_FALSE(ec) << newest;
    EXPECT_EQ(std::string(parsed.at("request_id").as_string()), last.Header("X-Request-Id").value_or(""))
        << newest;
    EXPECT_EQ(server->Terminate(std::chrono::seconds(15)), 0) << server->Process().Output();
}

TEST_P(BillingFaultsTest, AFullAccessLogDiskLosesLinesNeverCalls) {
    if (GetParam() == Backend::kPostgres) {
        GTEST_SKIP() << "the access log is the same on both backends: SQLite runs the case";
    }
    AccessLogDiskFull(D());
}

TEST_P(BillingFaultsTest, AFrozenPostgresIs503WithinTheWriteTimeoutAndChargesNothing) {
    if (GetParam() == Backend::kSqlite) {
        GTEST_SKIP() << "SQLite's waits are local: its busy timeout bounds them (AWriteLockHeldElsewhere...)";
    }
    PostgresFrozen(D());
}

TEST_P(BillingFaultsTest, DatabaseAwayIs503UnchargedAndServingResumesWhenItReturns) {
    if (GetParam() == Backend::kPostgres) {
        PostgresAway(D());
    } else {
        SqliteAway(D().Dir() / "outage-tmpfs");
    }
}

}  // namespace
}  // namespace lastro::e2e
