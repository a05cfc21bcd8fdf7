#include <lastro/sdk/uuid.hpp>

#include <gtest/gtest.h>

#include <cctype>
#include <set>
#include <stdexcept>

namespace lastro::sdk {
namespace {

constexpr char kDnsNamespace[] = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";

TEST(IsUuid, RejectsNonCanonicalForms) {
    for (const char* text :
         {"", "6ba7b810-9dad-11d1-80b4-00c04fd430c", "6ba7b810-9dad-11d1-80b4-00c04fd430c80",
          "6ba7b8109dad11d180b400c04fd430c8", "{6ba7b810-9dad-11d1-80b4-00c04fd430c8}",
          "6ba7b810-9dad-11d1-80b4_00c04fd430c8", "6ba7b810-9dad-11d1-80b4-00c04fd430cg",
          "6ba7b81-09dad-11d1-80b4-00c04fd430c8", " ba7b810-9dad-11d1-80b4-00c04fd430c8"}) {
        EXPECT_FALSE(IsUuid(text)) << text;
    }
}

TEST(IsUuid, AcceptsEitherCase) {
    EXPECT_TRUE(IsUuid(kDnsNamespace));
    EXPECT_TRUE(IsUuid("6BA7B810-9DAD-11D1-80B4-00C04FD430C8"));
}

TEST(UuidV5, RejectsABadNamespace) {
    EXPECT_THROW(UuidV5("not-a-uuid", "x"), std::invalid_argument);
}

TEST(UuidV5, MatchesTheRfc9562Vector) {
    EXPECT_EQ(UuidV5(kDnsNamespace, "www.example.com"), "2ed6657d-e927-568b-95e1-2665a8aea6a2");
    // The namespace's case does not matter: it is parsed into bytes.
    EXPECT_EQ(UuidV5("6BA7B810-9DAD-11D1-80B4-00C04FD430C8", "www.example.com"),
              "2ed6657d-e927-568b-95e1-2665a8aea6a2");
}

TEST(UuidV5, IsStableAndNameSensitive) {
    const std::string a = UuidV5(kDnsNamespace, "cvm.fundo:12345678000195");
    EXPECT_EQ(a, UuidV5(kDnsNamespace, "cvm.fundo:12345678000195"));
    EXPECT_NE(a, UuidV5(kDnsNamespace, "cvm.fundo:12345678000196"));
    EXPECT_EQ(a[14], '5');
    EXPECT_NE(std::string("89ab").find(a[19]), std::string::npos);
}

TEST(UuidV4, HasVersionAndVariantAndDiffers) {
    std::set<std::string> seen;
    for (int i = 0; i < 100; ++i) {
        const std::string id = UuidV4();
        ASSERT_TRUE(IsUuid(id)) << id;
        EXPECT_EQ(id[14], '4') << id;
        EXPECT_NE(std::string("89ab").find(id[19]), std::string::npos) << id;
        EXPECT_EQ(id, [&] {
            std::string lower = id;
            for (char& c : lower) {
                c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            }
            return lower;
        }());
        seen.insert(id);
    }
    EXPECT_EQ(seen.size(), 100u);
}

}  // namespace
}  // namespace lastro::sdk
