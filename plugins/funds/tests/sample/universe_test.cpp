#include "sample/universe.hpp"

#include "sample/registry_writer.hpp"

#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/text.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

namespace lastro::funds::sample {
namespace {

bool ValidCpf(const std::string& cpf) {
    if (cpf.size() != 11 || cpf.find_first_not_of("0123456789") != std::string::npos ||
        cpf.find_first_not_of(cpf[0]) == std::string::npos) {
        return false;
    }
    for (std::size_t check = 9; check <= 10; ++check) {
        int sum = 0;
        for (std::size_t i = 0; i < check; ++i) {
            sum += (cpf[i] - '0') * static_cast<int>(check + 1 - i);
        }
        const int digit = (sum * 10) % 11 % 10;
        if (cpf[check] - '0' != digit) {
            return false;
        }
    }
    return true;
}

bool ValidCnpj(const std::string& cnpj) {
    const auto parsed = sdk::ParseCnpj(cnpj);
    return parsed.digits && *parsed.digits == cnpj;
}

class UniverseTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() { universe_ = new Universe(BuildUniverse(20261014)); }
    static void TearDownTestSuite() {
        delete universe_;
        universe_ = nullptr;
    }
    static const Universe& U() { return *universe_; }

    static Universe* universe_;
};

Universe* UniverseTest::universe_ = nullptr;

TEST_F(UniverseTest, FundTypeMix) {
    std::map<FundType, std::size_t> counts;
    for (const Fund& fund : U().funds) {
        ++counts[fund.type];
    }
    EXPECT_EQ(U().funds.size(), 300u);
    EXPECT_EQ(counts[FundType::kFidc], 165u);
    EXPECT_GT(counts[FundType::kFidcNp], 0u);
    EXPECT_GT(counts[FundType::kFicFidc], 0u);
    for (FundType type : {FundType::kFi, FundType::kFii, FundType::kFip, FundType::kFiagro}) {
        EXPECT_GT(counts[type], 0u) << FundTypeCode(type);
    }
}

TEST_F(UniverseTest, IdsAndCodesAreUnique) {
    std::set<std::int64_t> fund_ids, class_ids, subclass_ids, codes;
    for (const Fund& fund : U().funds) {
        EXPECT_TRUE(fund_ids.insert(fund.id).second) << fund.id;
        EXPECT_TRUE(codes.insert(fund.cvm_code).second);
        for (const FundClass& c : fund.classes) {
            EXPECT_TRUE(class_ids.insert(c.id).second) << c.id;
            EXPECT_TRUE(codes.insert(c.cvm_code).second);
            for (const Subclass& s : c.subclasses) {
                EXPECT_TRUE(subclass_ids.insert(s.id).second) << s.id;
                EXPECT_TRUE(codes.insert(s.cvm_code).second);
            }
        }
    }
    for (const Fund& old : U().superseded_registrations) {
        EXPECT_TRUE(codes.insert(old.cvm_code).second);
    }
    EXPECT_TRUE(std::is_sorted(U().funds.begin(), U().funds.end(),
                               [](const Fund& a, const Fund& b) { return a.id < b.id; }));
}

TEST_F(UniverseTest, ExactlyOneSupersededRegistrationOfALiveFund) {
    ASSERT_EQ(U().superseded_registrations.size(), 1u);
    const Fund& old = U().superseded_registrations.front();
    const auto live =
        std::find_if(U().funds.begin(), U().funds.end(), [&](const Fund& f) { return f.id == old.id; });
    ASSERT_NE(live, U().funds.end());
    EXPECT_EQ(live->cnpj, old.cnpj);
    EXPECT_EQ(live->situation, Situation::kNormal);
    EXPECT_EQ(old.situation, Situation::kCancelled);
    ASSERT_TRUE(old.cancelled.has_value());
    EXPECT_LT(old.registered, live->registered);
    EXPECT_LT(*old.cancelled, live->registered);
    EXPECT_LT(old.cvm_code, live->cvm_code);
    EXPECT_TRUE(old.classes.empty());
}

TEST_F(UniverseTest, SituationsAndTheirDates) {
    std::map<Situation, std::size_t> counts;
    for (const Fund& fund : U().funds) {
        ++counts[fund.situation];
        EXPECT_EQ(fund.cancelled.has_value(), fund.situation == Situation::kCancelled) << fund.name;
        if (fund.cancelled) {
            EXPECT_EQ(*fund.cancelled, fund.situation_since);
            EXPECT_LT(fund.registered, *fund.cancelled);
        }
    }
    EXPECT_GT(counts[Situation::kNormal], 200u);
    EXPECT_GE(counts[Situation::kCancelled], 15u);
    EXPECT_GE(counts[Situation::kLiquidation], 2u);
    EXPECT_GE(counts[Situation::kPreOperational], 2u);
}

TEST_F(UniverseTest, DatesArePlausible) {
    const sdk::Date first{2005, 1, 1};
    const sdk::Date last{2026, 10, 13};
    const auto in_range = [&](const std::optional<sdk::Date>& date) {
        return !date || (first <= *date && *date <= last);
    };
    for (const Fund& fund : U().funds) {
        SCOPED_TRACE(fund.name);
        EXPECT_LE(fund.constituted, fund.registered);
        EXPECT_LE(fund.registered, fund.situation_since);
        for (const auto& date : {std::optional(fund.registered), std::optional(fund.constituted),
                                 std::optional(fund.situation_since), fund.cancelled, fund.adapted_rcvm175,
                                 fund.fiscal_year_start, fund.net_assets_date}) {
            EXPECT_TRUE(in_range(date)) << date->ToString();
        }
        if (fund.adapted_rcvm175) {
            EXPECT_LT(fund.constituted, kRcvm175InForce);
            EXPECT_LE(kRcvm175InForce, *fund.adapted_rcvm175);
        }
        if (fund.fiscal_year_end) {
            EXPECT_LT(*fund.fiscal_year_start, *fund.fiscal_year_end);
            EXPECT_LE(*fund.fiscal_year_start, kReferenceDate);
            EXPECT_LE(kReferenceDate, *fund.fiscal_year_end);
        }
        for (const FundClass& c : fund.classes) {
            EXPECT_LE(c.constituted, c.registered);
            EXPECT_LE(fund.constituted, c.constituted);
            EXPECT_TRUE(in_range(c.registered) && in_range(c.started) && in_range(c.situation_since));
            for (const Subclass& s : c.subclasses) {
                EXPECT_LE(c.constituted, s.constituted);
                EXPECT_TRUE(in_range(s.constituted) && in_range(s.started) && in_range(s.situation_since));
            }
        }
    }
}

TEST_F(UniverseTest, ClassesAndCnpjs) {
    std::size_t multi_class = 0;
    std::size_t without_classes = 0;
    std::set<std::string> cnpjs;
    for (const Fund& fund : U().funds) {
        SCOPED_TRACE(fund.name);
        EXPECT_TRUE(ValidCnpj(fund.cnpj));
        EXPECT_TRUE(cnpjs.insert(fund.cnpj).second);
        if (fund.classes.empty()) {
            // Cancelled before RCVM 175, or in liquidation without having adapted.
            ++without_classes;
            EXPECT_TRUE(fund.situation == Situation::kCancelled || fund.situation == Situation::kLiquidation);
            EXPECT_FALSE(fund.adapted_rcvm175.has_value());
            EXPECT_LT(fund.constituted, kRcvm175InForce);
            EXPECT_FALSE(fund.net_assets_cents.has_value());
        } else if (fund.classes.size() == 1) {
            EXPECT_EQ(fund.classes[0].cnpj, fund.cnpj);
        } else {
            ++multi_class;
            EXPECT_LE(fund.classes.size(), 3u);
            for (const FundClass& c : fund.classes) {
                EXPECT_TRUE(ValidCnpj(c.cnpj));
                EXPECT_TRUE(cnpjs.insert(c.cnpj).second) << "class CNPJ repeats: " << c.cnpj;
            }
        }
        std::optional<std::int64_t> sum;
        for (const FundClass& c : fund.classes) {
            EXPECT_EQ(c.situation, fund.situation);
            if (c.net_assets_cents) {
                sum = sum.value_or(0) + *c.net_assets_cents;
            }
        }
        EXPECT_EQ(fund.net_assets_cents, sum);
    }
    EXPECT_GE(multi_class, 5u);
    EXPECT_GE(without_classes, 5u);
    EXPECT_GE(U().ClassCount(), 270u);
}

TEST_F(UniverseTest, Subclasses) {
    std::size_t classes_with_subclasses = 0;
    std::set<Seniority> seniorities;
    for (const Fund& fund : U().funds) {
        for (const FundClass& c : fund.classes) {
            if (c.subclasses.empty()) {
                continue;
            }
            ++classes_with_subclasses;
            EXPECT_GE(c.subclasses.size(), 2u);
            EXPECT_LE(c.subclasses.size(), 4u);
            for (const Subclass& s : c.subclasses) {
                seniorities.insert(s.seniority);
                EXPECT_NE(sdk::FoldForSearch(s.name).find("subclasse"), std::string::npos) << s.name;
            }
        }
    }
    EXPECT_GE(classes_with_subclasses, 15u);
    EXPECT_TRUE(seniorities.count(Seniority::kSenior) && seniorities.count(Seniority::kMezzanine) &&
                seniorities.count(Seniority::kSubordinated));
}

TEST_F(UniverseTest, NamesAreUniqueAndSearchable) {
    std::set<std::string> names;
    std::size_t fidc = 0;
    std::size_t fidc_with_credito_word = 0;
    std::size_t non_fidc_matching_credito = 0;
    std::size_t mixed_case = 0;
    for (const Fund& fund : U().funds) {
        EXPECT_TRUE(names.insert(sdk::FoldForSearch(fund.name)).second) << fund.name;
        EXPECT_TRUE(sdk::IsValidUtf8(fund.name));
        mixed_case +=
            std::any_of(fund.name.begin(), fund.name.end(), [](char c) { return c >= 'a' && c <= 'z'; });
        const bool matches = sdk::FoldForSearch(fund.name).find("credito") != std::string::npos;
        if (fund.type == FundType::kFidc) {
            ++fidc;
            fidc_with_credito_word += fund.name.find("CRÉDITO ") != std::string::npos ||
                                      fund.name.find("Crédito ") != std::string::npos;
        } else if (!IsFidcFamily(fund.type)) {
            non_fidc_matching_credito += matches;
        }
    }
    EXPECT_GE(fidc_with_credito_word * 10, fidc * 3) << fidc_with_credito_word << " of " << fidc;
    EXPECT_GE(non_fidc_matching_credito, 1u);  // so the FIDC-universe filter matters
    EXPECT_GE(mixed_case, 1u);
}

TEST_F(UniverseTest, Institutions) {
    EXPECT_EQ(U().managers.size(), 20u);
    EXPECT_EQ(U().administrators.size(), 8u);
    std::size_t natural_persons = 0;
    for (const Institution& manager : U().managers) {
        if (manager.person_type == PersonType::kNaturalPerson) {
            ++natural_persons;
            EXPECT_TRUE(ValidCpf(manager.document)) << manager.document;
        } else {
            EXPECT_TRUE(ValidCnpj(manager.document)) << manager.document;
        }
    }
    EXPECT_EQ(natural_persons, 2u);
    for (const auto* list : {&U().administrators, &U().auditors, &U().custodians, &U().controllers}) {
        for (const Institution& institution : *list) {
            EXPECT_TRUE(ValidCnpj(institution.document)) << institution.name;
        }
    }
    for (const Institution& administrator : U().administrators) {
        EXPECT_FALSE(administrator.director.empty());
    }
    std::set<std::size_t> pf_funds;
    for (const Fund& fund : U().funds) {
        if (fund.manager && U().managers[*fund.manager].person_type == PersonType::kNaturalPerson) {
            pf_funds.insert(static_cast<std::size_t>(fund.id));
        }
    }
    EXPECT_GE(pf_funds.size(), 1u);
}

TEST(UniverseDeterminismTest, SameSeedSameUniverseOtherSeedOtherUniverse) {
    const RegistryFiles a = RenderRegistry(BuildUniverse(7));
    const RegistryFiles b = RenderRegistry(BuildUniverse(7));
    const RegistryFiles c = RenderRegistry(BuildUniverse(8));
    EXPECT_EQ(a.funds, b.funds);
    EXPECT_EQ(a.classes, b.classes);
    EXPECT_EQ(a.subclasses, b.subclasses);
    EXPECT_NE(a.funds, c.funds);
    EXPECT_NE(a.classes, c.classes);
}

// Other seeds keep the promises the tests above check for the default seed.
TEST(UniverseDeterminismTest, InvariantsHoldForOtherSeeds) {
    for (std::uint64_t seed : {0ULL, 1ULL, 2ULL, 12345ULL, 0xFFFFFFFFFFFFFFFFULL}) {
        const Universe universe = BuildUniverse(seed);
        EXPECT_EQ(universe.funds.size(), 300u);
        EXPECT_EQ(universe.superseded_registrations.size(), 1u) << seed;
        std::size_t multi = 0;
        std::size_t with_subclasses = 0;
        for (const Fund& fund : universe.funds) {
            multi += fund.classes.size() > 1;
            for (const FundClass& c : fund.classes) {
                with_subclasses += !c.subclasses.empty();
            }
        }
        EXPECT_GE(multi, 3u) << seed;
        EXPECT_GE(with_subclasses, 8u) << seed;
    }
}

// The full-size universe multiplies every type's count; the default one is unchanged by it.
TEST(UniverseSizeTest, FullSizeMultipliesEveryType) {
    const Universe full = BuildUniverse(20261014, UniverseSize::kFull);
    std::map<FundType, std::size_t> counts;
    std::set<std::string> cnpjs;
    for (const Fund& fund : full.funds) {
        ++counts[fund.type];
        EXPECT_TRUE(cnpjs.insert(fund.cnpj).second);
    }
    EXPECT_EQ(full.funds.size(), 300u * 16u);
    EXPECT_EQ(counts[FundType::kFidc], 165u * 16u);
    EXPECT_EQ(counts[FundType::kFiagro], 12u * 16u);
    const Universe sample = BuildUniverse(20261014);
    const Universe again = BuildUniverse(20261014, UniverseSize::kSample);
    EXPECT_EQ(RenderRegistry(sample).funds, RenderRegistry(again).funds);
}

}  // namespace
}  // namespace lastro::funds::sample
