#include <lastro/sdk/serving/remembered.hpp>
#include <lastro/sdk/testing/fake_host.hpp>

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::sdk {
namespace {

// A host that keeps what it is given, by key, and records the keys.
class KeepingHost : public Host {
public:
    mutable std::map<std::string, std::shared_ptr<const void>, std::less<>> kept;

    std::optional<Release> LatestRelease(const std::string&) const override { return std::nullopt; }
    std::shared_ptr<const void> Recall(std::string_view key) const override {
        auto it = kept.find(key);
        return it == kept.end() ? nullptr : it->second;
    }
    void Keep(std::string_view key, std::shared_ptr<const void> value) const override {
        kept.insert_or_assign(std::string(key), std::move(value));
    }
};

struct Months {
    std::vector<std::string> months;
};

TEST(Remembered, ReadsOnceWhileTheHostKeepsIt) {
    KeepingHost host;
    int reads = 0;
    auto read = [&] {
        ++reads;
        return Months{{"2026-07", "2026-08"}};
    };
    const auto first = Remembered<Months>(host, "test.months", read);
    const auto second = Remembered<Months>(host, "test.months", read);
    EXPECT_EQ(reads, 1);
    EXPECT_EQ(first.get(), second.get()) << "the same value, shared";
    EXPECT_EQ(second->months, (std::vector<std::string>{"2026-07", "2026-08"}));
    host.kept.clear();  // what a host does at a new generation
    EXPECT_EQ(Remembered<Months>(host, "test.months", read)->months.size(), 2u);
    EXPECT_EQ(reads, 2);
}

TEST(Remembered, TwoTypesUnderOneNameAreTwoValues) {
    KeepingHost host;
    const auto months = Remembered<Months>(host, "test.value", [] { return Months{{"2026-08"}}; });
    const auto text = Remembered<std::string>(host, "test.value", [] { return std::string("text"); });
    EXPECT_EQ(host.kept.size(), 2u);
    EXPECT_EQ(*text, "text");
    EXPECT_EQ(Remembered<Months>(host, "test.value", [] { return Months{}; })->months.size(), 1u);
}

// A value that neither copies nor moves (it guards what it fills later) is made in place.
struct Guarded {
    mutable std::mutex mutex;
    int value = 3;
};

TEST(Remembered, AValueMadeInPlace) {
    KeepingHost host;
    const auto guarded =
        Remembered<Guarded>(host, "test.guarded", [] { return std::make_shared<const Guarded>(); });
    EXPECT_EQ(guarded->value, 3);
    EXPECT_EQ(
        Remembered<Guarded>(host, "test.guarded", [] { return std::make_shared<const Guarded>(); }).get(),
        guarded.get());
}

TEST(Remembered, AHostThatKeepsNothingReadsEveryCall) {
    testing::FakeHost host;
    int reads = 0;
    for (int i = 0; i < 3; ++i) {
        Remembered<Months>(host, "test.months", [&] {
            ++reads;
            return Months{};
        });
    }
    EXPECT_EQ(reads, 3);
}

}  // namespace
}  // namespace lastro::sdk
